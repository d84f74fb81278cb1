"""A candidate's outputs reach the reference through its slots while they
have the expected form, and through a file (all of them) as soon as one
does not."""
import os
import tempfile
import unittest

import torch

from kmem_worker import outputs, transfer


def slots():
    return {"trials": [[torch.full((2, 3), float("nan"))], [torch.full((2, 3), float("nan"))]],
            }


class OutputsTest(unittest.TestCase):
    def test_outputs_of_the_expected_form_go_into_the_slots(self):
        shared = slots()
        kept = outputs.Outputs(shared)
        first = torch.ones(2, 3)
        kept.keep(0, [first])
        first.add_(5)  # a later change to the returned tensor does not reach the slot
        kept.keep(1, [torch.zeros(2, 3)])
        self.assertEqual(kept.deliver("/nonexistent/outputs.pt", "cpu"), "slots")
        self.assertTrue(torch.equal(shared["trials"][0][0], torch.ones(2, 3)))
        self.assertTrue(torch.equal(shared["trials"][1][0], torch.zeros(2, 3)))

    def test_one_misfit_sends_every_output_to_the_file(self):
        kept = outputs.Outputs(slots())
        kept.keep(0, [torch.ones(2, 3)])
        kept.keep(1, [torch.ones(3, 2)])  # wrong shape: no slot fits
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "outputs.pt")
            self.assertEqual(kept.deliver(path, "cpu"), path)
            saved = torch.load(path, weights_only=True)
        self.assertEqual([t.shape for [t] in saved["trials"]], [(2, 3), (3, 2)])
        self.assertTrue(torch.equal(saved["trials"][0][0], torch.ones(2, 3)))

    def test_without_slots_outputs_go_to_the_file_as_plain_tensors(self):
        class Lazy(torch.Tensor):
            pass
        kept = outputs.Outputs(None)
        kept.keep(0, [torch.ones(2).as_subclass(Lazy), 7])
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "outputs.pt")
            kept.deliver(path, "cpu")
            saved = torch.load(path, weights_only=True)
        self.assertIs(type(saved["trials"][0][0]), torch.Tensor)
        self.assertIsNone(saved["trials"][0][1])

    @unittest.skipUnless(torch.cuda.is_available(), "no GPU")
    def test_shared_slots_start_blank(self):
        expected = {"trials": [[torch.ones(4, device="cuda"), torch.ones(2, dtype=torch.int64, device="cuda")]]}
        with tempfile.TemporaryDirectory() as folder:
            shared = transfer.SharedInputs({"trials": []}, folder, "cuda", ipc=True, outputs_like=expected)
            floats, ints = shared.slots["trials"][0]
            self.assertTrue(torch.isnan(floats).all())
            self.assertTrue(torch.equal(ints.cpu(), torch.tensor([-1, -1])))
            shared.release()


if __name__ == "__main__":
    unittest.main()
