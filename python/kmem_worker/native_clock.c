/* kmem's own timer of one model call, out of reach of Python-level patching
 * (python/kmem_worker/native_clock.py builds it with the C compiler and loads
 * it before any candidate code runs). A Clock holds the cache flush (a bound
 * method of a tensor, captured at creation) and, on CUDA, two events of the
 * driver API; call(model, args) runs the whole sequence itself: flush,
 * synchronise the device, start event and host clock, model(*args), host
 * clock, synchronise the device, end event. Python can neither replace the
 * clocks nor the synchronisation it uses, and the tally of every call it
 * timed (count, summed milliseconds, smallest and largest) lives here.
 *
 * The driver (libcuda.so.1) is opened with dlopen at the first CUDA clock;
 * its legacy default stream and cuCtxSynchronize (every stream of the
 * context) are what torch.cuda.Event and torch.cuda.synchronize() use. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <time.h>

typedef int (*ctx_synchronize_fn)(void);
typedef int (*ctx_get_current_fn)(void **);
typedef int (*event_create_fn)(void **, unsigned int);
typedef int (*event_record_fn)(void *, void *);
typedef int (*event_synchronize_fn)(void *);
typedef int (*event_elapsed_fn)(float *, void *, void *);

static struct {
  int loaded;
  ctx_synchronize_fn ctx_synchronize;
  ctx_get_current_fn ctx_get_current;
  event_create_fn event_create;
  event_record_fn event_record;
  event_synchronize_fn event_synchronize;
  event_elapsed_fn event_elapsed;
} driver;

static void *symbol(void *library, const char *name, const char *fallback) {
  void *found = dlsym(library, name);
  return found != NULL || fallback == NULL ? found : dlsym(library, fallback);
}

static int load_driver(void) {
  if (driver.loaded) return 0;
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    PyErr_Format(PyExc_RuntimeError, "native clock: cannot open libcuda.so.1: %s", dlerror());
    return -1;
  }
  driver.ctx_synchronize = (ctx_synchronize_fn)symbol(library, "cuCtxSynchronize", NULL);
  driver.ctx_get_current = (ctx_get_current_fn)symbol(library, "cuCtxGetCurrent", NULL);
  driver.event_create = (event_create_fn)symbol(library, "cuEventCreate", NULL);
  driver.event_record = (event_record_fn)symbol(library, "cuEventRecord", NULL);
  driver.event_synchronize = (event_synchronize_fn)symbol(library, "cuEventSynchronize", NULL);
  driver.event_elapsed = (event_elapsed_fn)symbol(library, "cuEventElapsedTime_v2", "cuEventElapsedTime");
  if (!driver.ctx_synchronize || !driver.ctx_get_current || !driver.event_create || !driver.event_record ||
      !driver.event_synchronize || !driver.event_elapsed) {
    PyErr_SetString(PyExc_RuntimeError, "native clock: libcuda.so.1 lacks an entry point it needs");
    return -1;
  }
  driver.loaded = 1;
  return 0;
}

static int check(int status, const char *what) {
  if (status == 0) return 0;
  PyErr_Format(PyExc_RuntimeError, "native clock: %s failed with CUDA driver error %d", what, status);
  return -1;
}

typedef struct {
  PyObject_HEAD
  PyObject *flush;      /* called with no arguments before every call */
  int cuda;
  void *start, *end;    /* CUevent */
  long long calls;
  double measured_ms, fastest_ms, slowest_ms;
} Clock;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int clock_init(Clock *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"flush", "cuda", NULL};
  PyObject *flush;
  int cuda;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Op", names, &flush, &cuda)) return -1;
  if (!PyCallable_Check(flush)) {
    PyErr_SetString(PyExc_TypeError, "native clock: flush must be callable");
    return -1;
  }
  Py_INCREF(flush);
  Py_XSETREF(self->flush, flush);
  self->cuda = cuda;
  if (cuda) {
    void *context = NULL;
    if (load_driver() < 0) return -1;
    if (check(driver.ctx_get_current(&context), "cuCtxGetCurrent") < 0) return -1;
    if (context == NULL) {
      PyErr_SetString(PyExc_RuntimeError, "native clock: no current CUDA context");
      return -1;
    }
    if (check(driver.event_create(&self->start, 0), "cuEventCreate") < 0 ||
        check(driver.event_create(&self->end, 0), "cuEventCreate") < 0)
      return -1;
  }
  return 0;
}

static void clock_dealloc(Clock *self) {
  Py_XDECREF(self->flush);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int synchronize(Clock *self) {
  return self->cuda ? check(driver.ctx_synchronize(), "cuCtxSynchronize") : 0;
}

/* call(model, args) -> (ms, ms until model returned, value). */
static PyObject *clock_call(Clock *self, PyObject *args) {
  PyObject *model, *arguments;
  if (!PyArg_ParseTuple(args, "OO!", &model, &PyTuple_Type, &arguments)) return NULL;
  PyObject *flushed = PyObject_CallNoArgs(self->flush);
  if (flushed == NULL) return NULL;
  Py_DECREF(flushed);
  if (synchronize(self) < 0) return NULL;
  if (self->cuda && check(driver.event_record(self->start, NULL), "cuEventRecord") < 0) return NULL;
  double begin = now_ms();
  PyObject *value = PyObject_Call(model, arguments, NULL);
  double returned_ms = now_ms() - begin;
  if (value == NULL) return NULL;
  double ms = returned_ms;
  if (self->cuda) {
    float elapsed = 0.f;
    if (synchronize(self) < 0 || check(driver.event_record(self->end, NULL), "cuEventRecord") < 0 ||
        check(driver.event_synchronize(self->end), "cuEventSynchronize") < 0 ||
        check(driver.event_elapsed(&elapsed, self->start, self->end), "cuEventElapsedTime") < 0) {
      Py_DECREF(value);
      return NULL;
    }
    ms = elapsed;
  }
  if (self->calls == 0 || ms < self->fastest_ms) self->fastest_ms = ms;
  if (self->calls == 0 || ms > self->slowest_ms) self->slowest_ms = ms;
  self->calls += 1;
  self->measured_ms += ms;
  PyObject *result = Py_BuildValue("(ddO)", ms, returned_ms, value);
  Py_DECREF(value);
  return result;
}

/* tally() -> (calls, summed ms, fastest ms, slowest ms) of every call timed. */
static PyObject *clock_tally(Clock *self, PyObject *unused) {
  (void)unused;
  return Py_BuildValue("(Lddd)", self->calls, self->measured_ms, self->fastest_ms, self->slowest_ms);
}

static PyMethodDef clock_methods[] = {
    {"call", (PyCFunction)clock_call, METH_VARARGS, "call(model, args) -> (ms, returned_ms, value)"},
    {"tally", (PyCFunction)clock_tally, METH_NOARGS, "tally() -> (calls, measured_ms, fastest_ms, slowest_ms)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ClockType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kmem_native_clock.Clock",
    .tp_basicsize = sizeof(Clock),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)clock_init,
    .tp_dealloc = (destructor)clock_dealloc,
    .tp_methods = clock_methods,
    .tp_doc = "Times model calls: flush, synchronise, events and host clock, all in C.",
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "kmem_native_clock", NULL, -1, NULL};

PyMODINIT_FUNC PyInit_kmem_native_clock(void) {
  if (PyType_Ready(&ClockType) < 0) return NULL;
  PyObject *created = PyModule_Create(&module);
  if (created == NULL) return NULL;
  Py_INCREF(&ClockType);
  if (PyModule_AddObject(created, "Clock", (PyObject *)&ClockType) < 0) {
    Py_DECREF(&ClockType);
    Py_DECREF(created);
    return NULL;
  }
  return created;
}
