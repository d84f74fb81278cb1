"""The plausibility floor's arithmetic (runs on the CPU with any torch)."""
import importlib.util
import unittest

import torch

from kmem_worker import roofline


class RooflineTest(unittest.TestCase):
    def test_floor_is_the_larger_of_bytes_and_flops(self):
        # 4.8 GB at 4.8 TB/s = 1 ms; 67 GFLOP at 67 TFLOP/s = 1 ms.
        self.assertAlmostEqual(roofline.floor_ms(4.8e9, 0, (4.8e12, 67e12)), 1.0)
        self.assertAlmostEqual(roofline.floor_ms(4.8e9, 134e9, (4.8e12, 67e12)), 2.0)

    def test_bytes_count_inputs_outputs_and_parameters(self):
        model = torch.nn.Linear(256, 128)
        x = torch.randn(64, 256)
        out = model(x)
        expected_bytes = 4 * (64 * 256 + 64 * 128 + 256 * 128 + 128)
        floor = roofline.problem_floor_ms(model, [x], [out], "cpu")
        bandwidth, rate = roofline.CPU_PEAKS
        flops = roofline.count_flops(model, [x])
        self.assertAlmostEqual(floor, max(expected_bytes / bandwidth, flops / rate) * 1e3)

    def test_flops_are_counted_where_torch_can(self):
        flops = roofline.count_flops(torch.nn.Linear(256, 128, bias=False), [torch.randn(64, 256)])
        has_counter = importlib.util.find_spec("torch.utils.flop_counter") is not None
        self.assertEqual(flops, 2 * 64 * 256 * 128 if has_counter else 0)


if __name__ == "__main__":
    unittest.main()
