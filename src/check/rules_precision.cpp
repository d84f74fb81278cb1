// The rule on precision: an fp32 problem computed in fp32. Reduced-precision
// dtypes, casts, autocast, TF32 flags and settings, Triton's dot without
// "ieee", native half/bf16/fp8 types and intrinsics.
#include <algorithm>
#include <cctype>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "grammar.h"
#include "native_source.h"
#include "rule_matchers.h"
#include "rule_support.h"

namespace kmem::check {
namespace {

constexpr std::string_view kPrecisionNames[] = {
    "torch.float16",
    // numpy's dtypes computed from values or tables (float16 among them).
    "numpy.min_scalar_type", "numpy.result_type", "numpy.promote_types", "numpy.find_common_type", "numpy.ScalarType",
    "numpy.sctypeDict", "numpy.sctypes", "numpy.typecodes", "numpy.obj2sctype", "numpy.sctype2char", "numpy.typeDict",
    "numpy.dtypes", "numpy.core.numerictypes", "torch.half", "torch.bfloat16", "torch.HalfTensor",
    "torch.BFloat16Tensor", "torch.cuda.HalfTensor", "torch.cuda.BFloat16Tensor", "torch.set_float32_matmul_precision",
    "torch.autocast", "torch.amp", "torch.cuda.amp", "torch.cpu.amp", "torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.cudnn.allow_tf32", "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction", "torch.backends.cuda.matmul.fp32_precision",
    "torch.backends.cudnn.fp32_precision", "torch.backends.fp32_precision", "triton.language.float16",
    "triton.language.bfloat16", "triton.language.float8*", "numpy.float16", "numpy.half", "torch.float8*",
    "torch.cuda.amp", "torch.set_default_dtype", "torch.set_autocast*", "torch.float8_e4m3fn", "torch.float8_e5m2",
    "triton.language.dot_scaled", "triton.language.float8e*", "triton.language.fp8*",
    "torch.set_float32_matmul_precision", "torch.backends.cudnn.conv", "torch.backends.cudnn.rnn",
    "torch.backends.mkldnn.matmul", "torch.backends.mkldnn.conv", "torch.backends.mkldnn.rnn",
    "torch.backends.mkldnn.fp32_precision", "torch.backends.mkldnn.allow_tf32", "torch.backends.cudnn.flags",
    "torch.backends.mkldnn.flags", "torch.backends.cudnn.set_flags", "torch.backends.mkldnn.set_flags",
    "triton.language.dtype", "triton.language.core.dtype", "torch.chalf", "torch.complex32",
    "torch.quantize_per_tensor", "torch.quantize_per_tensor_dynamic", "torch.quantize_per_channel",
    "torch.quantization", "torch.ao", "torch.qint8", "torch.quint8", "torch.qint32", "torch.quint4x2", "torch.quint2x4",
    "torch.nn.quantized", "torch.nn.quantizable", "torch.nn.intrinsic", "torch.nn.qat", "torch.fake_quantize*",
    "torch.fbgemm*", "torch.backends.quantized", "torch.quantized*", "numpy.sctypeDict", "numpy.typeDict",
    "numpy.sctypes"};
constexpr std::string_view kPrecisionMethods[] = {"half", "bfloat16", "chalf"};
// Reduced-precision types by name or type code, as a call argument, a
// keyword's value or a subscript (`np.dtype("e")`, `np.zeros(n, dtype="f2")`,
// `x.to("torch.chalf")`), after a "torch." or "numpy." prefix.
constexpr std::string_view kPrecisionTypeNames[] = {
    "e",         "f2",    "<f2",   ">f2",    "=f2",    "|f2",      "float16",  "half",       "bfloat16",
    "complex32", "chalf", "qint8", "quint8", "qint32", "quint4x2", "quint2x4", "HalfTensor", "BFloat16Tensor"};
// Native identifiers of reduced-precision types and math (after comments are dropped).
constexpr std::string_view kPrecisionStrings[] = {
    "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162", "__nv_fp8_e4m3", "__nv_fp8_e5m2", "precision::tf32",
    "wmma::precision::tf32", "__float2half", "__float2bfloat16", "half2", "at::Half", "at::BFloat16", "c10::Half",
    "c10::BFloat16", "kHalf", "kBFloat16", "kFloat16", "nvcuda::wmma", "mma_sync", "__hmul", "__hadd", "__hfma",
    "__half2float", "__float2half_rn", "__nv_fp8_storage_t", "__nv_fp8x2_e4m3", "CUBLAS_TF32_TENSOR_OP_MATH",
    "CUBLAS_TENSOR_OP_MATH", "CUBLAS_COMPUTE_32F_FAST_TF32", "CUBLAS_COMPUTE_32F_FAST_16F",
    "CUBLAS_COMPUTE_32F_FAST_16BF", "CUBLAS_COMPUTE_16F", "CUDA_R_16F", "CUDA_R_16BF", "CUDA_R_8F_E4M3",
    "CUDA_R_8F_E5M2", "CUDNN_DATA_HALF", "CUDNN_DATA_BFLOAT16", "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION",
    "CUDNN_TENSOR_OP_MATH", "tf32", "f16", "bf16", "f16x2", "bf16x2", "e4m3", "e5m2", "cublasHgemm", "nv_bfloat16",
    "nv_bfloat162", "_Float16", "__fp16", "__bf16", "__nv_fp8x4_e4m3", "__nv_fp8x4_e5m2", "__nv_fp8x2_e5m2",
    "ScalarType::Half", "ScalarType::BFloat16", "ScalarType::Float8_e4m3fn", "ScalarType::Float8_e5m2",
    "kFloat8_e4m3fn", "kFloat8_e5m2", "setAllowTF32CuBLAS", "setAllowTF32CuDNN", "setFloat32MatmulPrecision",
    "setAllowFP16ReductionCuBLAS", "setAllowBF16ReductionCuBLAS", "setFloat32Precision", "at::autocast",
    "torch::autocast", "set_autocast_enabled",
    // Math modes and compute types named by their types: a
    // number cast to one (`(cublasMath_t)3` is TF32 tensor-op
    // math) names no mode the rules can read.
    "cublasMath_t", "cublasComputeType_t", "cudnnMathType_t",
    // The compute type set as a descriptor's attribute (any value).
    "CUBLASLT_MATMUL_DESC_COMPUTE_TYPE",
    // Other spellings of the same types and conversions, CUTLASS's.
    "nv_half", "nv_half2", "__nv_half", "__nv_half2", "__float2bfloat16_rn", "__float2bfloat16_rz", "__bfloat162float",
    "__float2half_rz", "__float2half_rd", "__float2half_ru", "tfloat32_t", "half_t", "bfloat16_t", "float_e4m3_t",
    "float_e5m2_t", "OpClassTensorOp", "OpClassWmmaTensorOp", "e2m1", "__nv_fp4_e2m1", "__nv_fp6_e2m3",
    "__nv_fp6_e3m2"};
// Prefixes of CUDA's reduced-precision types and intrinsics: every spelling
// of a family (`__float2half_rn`, `__half2float`, `__nv_bfloat16`, `__nv_fp8_e4m3`).
constexpr std::string_view kPrecisionPrefixes[] = {"__float2half",
                                                   "__float2bfloat16",
                                                   "__half2",
                                                   "__bfloat162",
                                                   "__nv_half",
                                                   "__nv_bfloat",
                                                   "__nv_fp8",
                                                   "__nv_fp6",
                                                   "__nv_fp4",
                                                   "__nv_cvt_float",
                                                   "__nv_cvt_bfloat",
                                                   "__nv_cvt_half",
                                                   "nv_bfloat",
                                                   "__hfma",
                                                   "__hmul",
                                                   "__hadd",
                                                   "__hsub",
                                                   "__hdiv",
                                                   "e2m1",
                                                   "e2m3",
                                                   "e3m2",
                                                   "e4m3",
                                                   "e5m2",
                                                   "ue8m0",
                                                   "float8",
                                                   "fp8"};
// Calls that choose a math mode or compute type, with the argument that
// does and the values that keep fp32: any other value (a number cast through
// `decltype`, a macro, a variable) is judged reduced.
struct MathChoice {
  std::string_view function;
  size_t argument;
  size_t arity;
  std::span<const std::string_view> keeps_fp32;
};
constexpr std::string_view kFp32MathModes[] = {"CUBLAS_DEFAULT_MATH", "CUBLAS_PEDANTIC_MATH",
                                               "CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION"};
constexpr std::string_view kFp32ComputeTypes[] = {"CUBLAS_COMPUTE_32F", "CUBLAS_COMPUTE_32F_PEDANTIC",
                                                  "CUBLAS_COMPUTE_64F", "CUBLAS_COMPUTE_64F_PEDANTIC",
                                                  "CUDA_R_32F",         "CUDA_R_64F"};
constexpr std::string_view kFp32CudnnMathTypes[] = {"CUDNN_DEFAULT_MATH", "CUDNN_FMA_MATH"};
constexpr MathChoice kMathChoices[] = {{"cublasSetMathMode", 1, 2, kFp32MathModes},
                                       {"cublasGemmEx", 17, 19, kFp32ComputeTypes},
                                       {"cublasGemmBatchedEx", 18, 20, kFp32ComputeTypes},
                                       {"cublasGemmStridedBatchedEx", 21, 23, kFp32ComputeTypes},
                                       {"cublasLtMatmulDescCreate", 1, 3, kFp32ComputeTypes},
                                       {"cublasLtMatmulDescInit", 1, 3, kFp32ComputeTypes},
                                       {"cudnnSetConvolutionMathType", 1, 2, kFp32CudnnMathTypes}};
// Tensor methods of the C++ API that cast to reduced precision (`x.half()`).
constexpr std::string_view kPrecisionNativeMethods[] = {"half", "bfloat16"};
// Flags that set TF32 or other reduced precision: false is the only value a candidate may set.
constexpr std::string_view kPrecisionFlags[] = {"torch.backends.cuda.matmul.allow_tf32",
                                                "torch.backends.cudnn.allow_tf32",
                                                "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
                                                "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction"};
// Settings a candidate may set to either value: they change no result.
// Precision settings given by name: only "ieee" and "highest" keep fp32.
constexpr std::string_view kPrecisionSettings[] = {"fp32_precision", "set_float32_matmul_precision"};
constexpr std::string_view kFreeFlags[] = {"torch.backends.cudnn.benchmark", "torch.backends.cudnn.deterministic",
                                           "torch.backends.cudnn.enabled"};

// Parts of a torch, numpy or Triton name that make it a reduced-precision
// type, cast, table of types or setting wherever they appear in the name
// (`torch.Tensor.half`, `torch.HalfStorage.dtype`, `numpy.typecodes`,
// `torch.get_autocast_cpu_dtype`): exact parts, then parts containing one.
constexpr std::string_view kPrecisionParts[] = {"half",    "chalf",      "complex32", "typecodes",
                                                "sctypes", "sctypeDict", "typeDict"};
constexpr std::string_view kPrecisionPartInfixes[] = {"Half",   "BFloat16", "bfloat16", "float16", "Float16", "float8",
                                                      "Float8", "autocast", "fp16",     "bf16",    "tf32",    "TF32"};

bool names_reduced_precision(std::string_view qualified) {
  if (!qualified.starts_with("torch.") && !qualified.starts_with("numpy.") && !qualified.starts_with("triton."))
    return false;
  for (size_t start = qualified.find('.') + 1; start != 0; start = qualified.find('.', start) + 1) {
    std::string_view part = qualified.substr(start, qualified.find('.', start) - start);
    if (listed(part, kPrecisionParts)) return true;
    if (part.starts_with("is_")) continue;  // a question (`torch.is_autocast_enabled`) changes nothing
    for (std::string_view infix : kPrecisionPartInfixes)
      if (part.find(infix) != std::string_view::npos) return true;
  }
  return false;
}

// Whether a type's name or numpy type code (`"float16"`, `"<e"`, `"=f2"`)
// names a reduced-precision type, after a "torch.", "numpy." or "np." prefix
// and a byte-order mark.
bool reduced_precision_type_name(std::string_view name) {
  for (std::string_view prefix : {"torch.", "numpy.", "np."})
    if (name.starts_with(prefix)) name.remove_prefix(prefix.size());
  if (name.size() > 1 && std::string_view("<>=|").find(name.front()) != std::string_view::npos) name.remove_prefix(1);
  return listed(name, kPrecisionTypeNames) || name.starts_with("float8");
}

// The same for the one argument of a cast (`x.type("torch.cuda.HalfTensor")`,
// `x.astype(">e")`), where a name containing a reduced type counts too.
bool reduced_precision_cast_name(std::string_view name) {
  if (reduced_precision_type_name(name)) return true;
  for (std::string_view infix : {"Half", "BFloat16", "float16", "float8", "half"})
    if (name.find(infix) != std::string_view::npos) return true;
  return false;
}

// Whether `value` keeps fp32: the literal False (allow_tf32) or "ieee".
bool keeps_fp32(const Context& c, TSNode value) {
  std::string_view literal;
  if (ts_node_is_null(value)) return false;
  return ts_node_symbol(value) == c.grammar().false_ || (c.string_literal(value, &literal) && literal == "ieee");
}

// A call of triton.language.dot that leaves its precision to Triton (TF32
// for fp32 operands) or sets it by anything but a literal: it must say
// input_precision="ieee" or allow_tf32=False.
bool default_precision_dot(const Context& c) {
  const std::string& callee = c.callee_name();
  if (callee != "triton.language.dot" && callee != "triton.language.core.dot") return false;
  const Grammar& g = c.grammar();
  TSNode arguments = c.argument_list(c.node());
  if (ts_node_is_null(arguments) || !ts_node_is_null(c.unpacked_argument(c.node()))) return true;
  uint32_t n = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (ts_node_symbol(a) != g.keyword_argument) continue;
    std::string_view key = c.text(field(a, g.field_name));
    if (key == "input_precision" || key == "allow_tf32") return false;  // judged below
  }
  // dot(a, b, acc, input_precision) (allow_tf32 in older Triton)
  return !keeps_fp32(c, positional_argument(c, 3));
}

// Whether the current node lies in a function decorated as a Triton kernel
// (`@triton.jit`, `@triton.autotune(...)` over it, `@triton.heuristics`).
bool in_triton_kernel(const Context& c) {
  const Grammar& g = c.grammar();
  for (uint32_t up = 1; up < 256; ++up) {
    TSNode scope = c.ancestor(up);
    if (ts_node_eq(scope, c.ancestor(up + 1))) return false;
    if (ts_node_symbol(scope) != g.decorated_definition) continue;
    for (uint32_t i = 0; i < ts_node_named_child_count(scope); ++i) {
      TSNode decorator = ts_node_named_child(scope, i);
      if (ts_node_symbol(decorator) != g.decorator || ts_node_named_child_count(decorator) == 0) continue;
      TSNode expression = ts_node_named_child(decorator, 0);
      if (ts_node_symbol(expression) == g.call) expression = field(expression, g.field_function);
      if (c.qualified_name(expression).starts_with("triton.")) return true;
    }
  }
  return false;
}

// A precision setting given by name (`torch.backends.cudnn.conv.fp32_precision
// = "tf32"`, `torch.set_float32_matmul_precision("high")`): only "ieee" and
// "highest" keep fp32.
bool reduced_precision_setting(const Context& c) {
  const Grammar& g = c.grammar();
  auto reduces = [&](TSNode value) {
    std::string_view literal;
    return ts_node_is_null(value) || !c.string_literal(value, &literal) || (literal != "ieee" && literal != "highest");
  };
  const std::string& reference = c.reference_name();
  std::string_view last = std::string_view(reference).substr(reference.rfind('.') + 1);
  if (reference.empty() || !listed(last, kPrecisionSettings)) return false;
  if (c.parent_symbol() == g.assignment && ts_node_eq(field(c.parent(), g.field_left), c.node()))
    return reduces(field(c.parent(), g.field_right));
  if (c.parent_symbol() == g.call && ts_node_eq(field(c.parent(), g.field_function), c.node())) {
    TSNode arguments = field(c.parent(), g.field_arguments);
    return ts_node_is_null(arguments) || ts_node_named_child_count(arguments) != 1 ||
           reduces(ts_node_named_child(arguments, 0));
  }
  return !only_compared(c);
}

// Whether the current node is a string literal naming a reduced-precision
// type (kPrecisionTypeNames) where a type is given: a call's argument, a
// keyword's value, a subscript of a torch or numpy mapping.
bool type_named_by_string(const Context& c, std::string_view* literal) {
  const Grammar& g = c.grammar();
  static const TSSymbol kSubscript = python_symbol("subscript");
  TSSymbol parent = c.parent_symbol();
  auto torch_or_numpy_mapping = [&] {  // np.sctypeDict["e"]; a dictionary of one's own is not a type
    std::string value = c.qualified_name(ts_node_child_by_field_name(c.parent(), "value", 5));
    return value.starts_with("torch.") || value.starts_with("numpy.");
  };
  bool placed =
      parent == g.argument_list ||
      (parent == g.keyword_argument && ts_node_eq(field(c.parent(), g.field_value), c.node())) ||
      (parent == kSubscript && ts_node_eq(ts_node_child_by_field_name(c.parent(), "subscript", 9), c.node()) &&
       torch_or_numpy_mapping());
  if (c.symbol() != g.string || !placed || !c.string_literal(c.node(), literal)) return false;
  if (parent == g.argument_list) {  // getattr(torch, "float16") reads as torch.float16, judged as that name
    std::string callee = c.qualified_name(field(c.ancestor(2), g.field_function));
    if (callee == "getattr" || callee == "hasattr") return false;
  }
  return reduced_precision_type_name(*literal);
}

}  // namespace

// A setting a candidate may write: a precision flag set to False, or a flag
// that changes no result (cudnn.benchmark), set to a boolean.
bool allowed_setting(const Context& c, TSNode target) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.assignment) return false;
  TSNode right = field(c.node(), g.field_right);
  if (ts_node_is_null(right)) return false;
  std::string name = c.qualified_name(target);
  if (listed(name, kPrecisionFlags)) return ts_node_symbol(right) == g.false_;
  std::string_view literal;
  if (name.starts_with("torch.backends.") && name.ends_with(".fp32_precision"))
    return c.string_literal(right, &literal) && literal == "ieee";
  return listed(name, kFreeFlags) && (ts_node_symbol(right) == g.false_ || ts_node_symbol(right) == g.true_);
}

void precision_downcast(const Context& c, std::vector<Finding>& out) {
  const std::string& reference = c.reference_name();
  bool setting =
      !reference.empty() && listed(std::string_view(reference).substr(reference.rfind('.') + 1), kPrecisionSettings);
  if (setting) {
    if (reduced_precision_setting(c)) out.push_back({c.node(), reference});
  } else if (!assigned_false(c) && !only_compared(c)) {
    size_t found = out.size();
    match_names(c, kPrecisionNames, out);
    if (out.size() == found && names_reduced_precision(reference)) out.push_back({c.node(), reference});
  }
  if (const std::string& native = c.native_text(); !native.empty()) {  // a string's text read as C++
    for (std::string_view token : kPrecisionStrings)
      if (has_uncompared_identifier(native, token)) out.push_back({c.node(), std::string(token)});
    for (std::string_view prefix : kPrecisionPrefixes)
      if (std::string_view found = identifier_with_prefix(native, prefix); !found.empty())
        out.push_back({c.node(), std::string(found)});
    // A dtype made from a number (`static_cast<c10::ScalarType>(5)` is Half).
    for (std::string_view cast : {"ScalarType>(", "(c10::ScalarType)", "(at::ScalarType)", "(ScalarType)"})
      if (native.find(cast) != std::string::npos) out.push_back({c.node(), std::string(cast) + " from a number"});
    // `half` as a type only in C++ sources (a docstring's "the first half second" is prose).
    if (native.find('{') != std::string::npos && native.find(';') != std::string::npos && has_half_type(native))
      out.push_back({c.node(), "half"});
    for (std::string_view method : kPrecisionNativeMethods)
      if (has_member_call(native, method)) out.push_back({c.node(), "." + std::string(method) + "()"});
    for (const MathChoice& choice : kMathChoices)
      if (has_unlisted_argument(native, choice.function, choice.argument, choice.arity, choice.keeps_fp32))
        out.push_back({c.node(), std::string(choice.function) + " with a mode other than fp32's"});
  }
  for (const auto& [at, key] : environment_writes(c))
    if (listed(key, kEnvironmentPrecision)) out.push_back({at, "os.environ[" + key + "]"});
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  if (std::string_view literal; type_named_by_string(c, &literal)) out.push_back({node, std::string(literal)});
  // `a @ b` in a Triton kernel is tl.dot with Triton's default precision (TF32 for fp32).
  if (c.symbol() == g.binary_operator && c.text(node).find('@') != std::string_view::npos) {
    TSNode operator_node = ts_node_child_by_field_name(node, "operator", 8);
    if (!ts_node_is_null(operator_node) && c.text(operator_node) == "@" && in_triton_kernel(c))
      out.push_back({node, "@ in a Triton kernel (tl.dot at TF32)"});
  }
  if (c.symbol() == g.call) {
    if (default_precision_dot(c)) out.push_back({node, "tl.dot without input_precision=\"ieee\""});
    // A numpy type named by a string built at run time (`np.dtype(chr(101))`,
    // `np.dtype("f" + str(2))`): any type, fp16 included.
    if (TSNode named = positional_argument(c, 0); c.callee_name() == "numpy.dtype" && !ts_node_is_null(named)) {
      TSSymbol kind = ts_node_symbol(named);
      if (kind != g.string && kind != g.identifier && kind != g.attribute)
        out.push_back({named, "numpy.dtype(" + written(c.text(named)) + ")"});
    }
    TSNode function = field(node, g.field_function);
    TSNode object;
    std::string_view name;
    if (!ts_node_is_null(function) && c.reads_attribute(function, &object, &name)) {
      if (listed(name, kPrecisionMethods)) out.push_back({function, std::string(".").append(name).append("()")});
      // x.type("torch.HalfTensor"), x.to("torch.float16"): a type by its name.
      TSNode first = positional_argument(c, 0);
      std::string_view literal;
      if ((name == "type" || name == "to" || name == "astype" || name == "view") && !ts_node_is_null(first) &&
          c.string_literal(first, &literal) && reduced_precision_cast_name(literal))
        out.push_back({first, std::string(literal)});
    }
  } else if (c.symbol() == g.keyword_argument) {
    TSNode name = field(node, g.field_name);
    TSNode value = field(node, g.field_value);
    if (ts_node_is_null(name) || ts_node_is_null(value)) return;
    std::string_view key = c.text(name);
    std::string_view literal;
    if (key == "allow_tf32" && ts_node_symbol(value) != g.false_) out.push_back({node, written(c.text(node))});
    else if (key == "input_precision" && !(c.string_literal(value, &literal) && literal == "ieee"))
      out.push_back({node, written(c.text(node))});
  }
}

}  // namespace kmem::check
