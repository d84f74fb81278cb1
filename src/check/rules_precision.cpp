// The rule on precision: an fp32 problem computed in fp32. Reduced-precision
// dtypes, casts, autocast, TF32 flags and settings, Triton's dot without
// "ieee", native half/bf16/fp8 types and intrinsics, integer and 8/4-bit
// math (int8 products, dp4a, integer tensor-core instructions).
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
    // The default tensor type, given by name or object (`"torch.cuda.HalfTensor"`
    // computed at run time): every tensor made without a dtype.
    "torch.set_default_tensor_type",
    // numpy's dtypes computed from values or tables (float16 among them).
    "numpy.min_scalar_type", "numpy.result_type", "numpy.promote_types", "numpy.find_common_type", "numpy.ScalarType",
    "numpy.sctypeDict", "numpy.sctypes", "numpy.typecodes", "numpy.obj2sctype", "numpy.sctype2char", "numpy.typeDict",
    "numpy.dtypes", "numpy.core.numerictypes", "numpy.nbytes", "numpy.cast", "numpy.maximum_sctype",
    // torch.testing's lists of dtypes, fp16 and bf16 among them (found by torch.finfo, never named).
    "torch.testing.get_all_*", "torch.testing.floating_types_and*", "torch.testing.all_types_and*",
    "torch.testing.floating_and_complex_types_and*", "torch.testing.all_types_and_complex_and*", "torch.half",
    "torch.bfloat16", "torch.HalfTensor", "torch.BFloat16Tensor", "torch.cuda.HalfTensor", "torch.cuda.BFloat16Tensor",
    "torch.set_float32_matmul_precision", "torch.set_flush_denormal", "torch.autocast", "torch.amp", "torch.cuda.amp",
    "torch.cpu.amp", "torch.backends.cuda.matmul.allow_tf32", "torch.backends.cudnn.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
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
// The names of numpy's types without their size (`float` of `float32`).
constexpr std::string_view kNumpyTypeNames[] = {
    "bool",  "int",   "uint",   "float",    "complex",   "half",        "single",  "double",   "longdouble", "byte",
    "ubyte", "short", "ushort", "intc",     "uintc",     "intp",        "uintp",   "longlong", "ulonglong",  "object",
    "str",   "bytes", "void",   "datetime", "timedelta", "clongdouble", "csingle", "cdouble",  "bfloat"};
// Native identifiers of reduced-precision types and math (after comments are dropped).
constexpr std::string_view kPrecisionStrings[] = {
    "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162", "__nv_fp8_e4m3", "__nv_fp8_e5m2", "precision::tf32",
    "wmma::precision::tf32", "__float2half", "__float2bfloat16", "half2", "at::Half", "at::BFloat16", "c10::Half",
    "c10::BFloat16", "kHalf", "kBFloat16", "kFloat16", "kComplexHalf", "ComplexHalf", "nvcuda::wmma", "mma_sync",
    "__hmul", "__hadd", "__hfma", "__half2float", "__float2half_rn", "__nv_fp8_storage_t", "__nv_fp8x2_e4m3",
    "CUBLAS_TF32_TENSOR_OP_MATH", "CUBLAS_TENSOR_OP_MATH", "CUBLAS_COMPUTE_32F_FAST_TF32",
    "CUBLAS_COMPUTE_32F_FAST_16F", "CUBLAS_COMPUTE_32F_FAST_16BF", "CUBLAS_COMPUTE_16F", "CUDA_R_16F", "CUDA_R_16BF",
    "CUDA_R_16I", "CUDA_R_16U", "CUDNN_DATA_HALF", "CUDNN_DATA_BFLOAT16", "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION",
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
    "float_e5m2_t", "OpClassTensorOp", "OpClassWmmaTensorOp", "e2m1", "__nv_fp4_e2m1", "__nv_fp6_e2m3", "__nv_fp6_e3m2",
    "float_e2m1_t", "float_e2m3_t", "float_e3m2_t", "float_ue8m0_t", "float_ue4m3_t",
    // Integer math standing in for fp32: CUTLASS's sub-byte integers and
    // integer tensor-core operations.
    "int4b_t", "uint4b_t", "int2b_t", "uint2b_t", "uint1b_t", "OpMultiplyAddSaturate", "OpXorPopc", "OpAndPopc"};
// Prefixes of CUDA's reduced-precision types and intrinsics: every spelling
// of a family (`__float2half_rn`, `__half2float`, `__nv_bfloat16`, `__nv_fp8_e4m3`).
constexpr std::string_view kPrecisionPrefixes[] = {
    "__float2half", "__float2bfloat16", "__half2", "__bfloat162", "__nv_half", "__nv_bfloat", "__nv_fp8", "__nv_fp6",
    "__nv_fp4", "__nv_cvt_float", "__nv_cvt_bfloat", "__nv_cvt_half", "nv_bfloat", "__hfma", "__hmul", "__hadd",
    "__hsub", "__hdiv", "e2m1", "e2m3", "e3m2", "e4m3", "e5m2", "ue8m0", "float8", "fp8",
    // Integer and 8/6/4-bit math: dot products of bytes (`__dp4a`, PTX `dp4a`),
    // tensor-core builtins and instructions (`__imma_*`, `wgmma`, `tcgen05`: no
    // fp32 among their types), cuBLAS's and cuDNN's integer, 8-, 6- and 4-bit
    // data and compute types, cuBLASLt's int8 layouts, torch's int8/fp8 products.
    "__dp4a", "__dp2a", "dp4a", "dp2a", "__imma", "__bmma", "__hmma", "wgmma", "tcgen05", "CUBLAS_COMPUTE_32I",
    "CUDA_R_4", "CUDA_R_6F", "CUDA_R_8", "CUDA_C_4", "CUDA_C_8", "CUDA_C_16", "CUDNN_DATA_INT8", "CUDNN_DATA_UINT8",
    "CUDNN_DATA_FP8", "CUBLASLT_ORDER_COL32", "CUBLASLT_ORDER_COL4_4R2_8C", "_int_mm", "_scaled_mm",
    "_scaled_grouped_mm", "_weight_int4pack", "_weight_int8pack", "_convert_weight_to_int4pack", "_dyn_quant"};
// Calls that choose a math mode or compute type, with the argument that
// does and the values that keep fp32: any other value (a number cast through
// `decltype`, a macro, a variable) is judged reduced.
struct MathChoice {
  std::string_view function;
  size_t argument;
  size_t arity;
  std::span<const std::string_view> keeps_fp32;
  bool gives_back_saved = false;  // also a mode saved by cublasGetMathMode (restored_values)
};
constexpr std::string_view kFp32MathModes[] = {"CUBLAS_DEFAULT_MATH", "CUBLAS_PEDANTIC_MATH",
                                               "CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION"};
constexpr std::string_view kFp32ComputeTypes[] = {"CUBLAS_COMPUTE_32F", "CUBLAS_COMPUTE_32F_PEDANTIC",
                                                  "CUBLAS_COMPUTE_64F", "CUBLAS_COMPUTE_64F_PEDANTIC",
                                                  "CUDA_R_32F",         "CUDA_R_64F"};
constexpr std::string_view kFp32CudnnMathTypes[] = {"CUDNN_DEFAULT_MATH", "CUDNN_FMA_MATH"};
constexpr MathChoice kMathChoices[] = {{"cublasSetMathMode", 1, 2, kFp32MathModes, true},
                                       {"cublasGemmEx", 17, 19, kFp32ComputeTypes},
                                       {"cublasGemmBatchedEx", 18, 20, kFp32ComputeTypes},
                                       {"cublasGemmStridedBatchedEx", 21, 23, kFp32ComputeTypes},
                                       {"cublasLtMatmulDescCreate", 1, 3, kFp32ComputeTypes},
                                       {"cublasLtMatmulDescInit", 1, 3, kFp32ComputeTypes},
                                       {"cudnnSetConvolutionMathType", 1, 2, kFp32CudnnMathTypes}};
// Data types of cuBLAS's and cuDNN's calls, and the values that keep fp32:
// any other (a number cast, a variable, a macro) may name int8 or fp16.
constexpr std::string_view kFp32DataTypes[] = {"CUDA_R_32F", "CUDA_R_64F", "CUDA_C_32F", "CUDA_C_64F"};
constexpr std::string_view kFp32CudnnDataTypes[] = {"CUDNN_DATA_FLOAT", "CUDNN_DATA_DOUBLE"};
struct DataTypeChoice {
  std::string_view function;
  size_t arity;
  std::initializer_list<size_t> arguments;
  std::span<const std::string_view> keeps_fp32;
};
const DataTypeChoice kDataTypeChoices[] = {{"cublasGemmEx", 19, {8, 11, 15}, kFp32DataTypes},
                                           {"cublasGemmEx_64", 19, {8, 11, 15}, kFp32DataTypes},
                                           {"cublasGemmBatchedEx", 20, {8, 11, 15}, kFp32DataTypes},
                                           {"cublasGemmBatchedEx_64", 20, {8, 11, 15}, kFp32DataTypes},
                                           {"cublasGemmStridedBatchedEx", 23, {8, 12, 17}, kFp32DataTypes},
                                           {"cublasGemmStridedBatchedEx_64", 23, {8, 12, 17}, kFp32DataTypes},
                                           {"cublasSgemmEx", 17, {8, 11, 15}, kFp32DataTypes},
                                           {"cublasSgemmEx_64", 17, {8, 11, 15}, kFp32DataTypes},
                                           {"cublasLtMatrixLayoutCreate", 5, {1}, kFp32DataTypes},
                                           {"cublasLtMatrixLayoutInit", 5, {1}, kFp32DataTypes},
                                           {"cublasLtMatmulDescCreate", 3, {2}, kFp32DataTypes},
                                           {"cudnnSetTensor4dDescriptor", 7, {2}, kFp32CudnnDataTypes},
                                           {"cudnnSetTensor4dDescriptorEx", 10, {1}, kFp32CudnnDataTypes},
                                           {"cudnnSetTensorNdDescriptor", 5, {1}, kFp32CudnnDataTypes},
                                           {"cudnnSetTensorNdDescriptorEx", 5, {2}, kFp32CudnnDataTypes},
                                           {"cudnnSetFilter4dDescriptor", 7, {1}, kFp32CudnnDataTypes},
                                           {"cudnnSetFilterNdDescriptor", 5, {1}, kFp32CudnnDataTypes},
                                           {"cudnnSetConvolution2dDescriptor", 9, {8}, kFp32CudnnDataTypes},
                                           {"cudnnSetConvolutionNdDescriptor", 7, {6}, kFp32CudnnDataTypes}};
// Types whose values name a precision (torch's dtypes, CUDA's, cuBLAS's
// and cuDNN's data and compute types): a value made from anything but a
// named value (`c10::ScalarType(5)` is Half, `(cudaDataType_t)2` is
// CUDA_R_16F, `static_cast<cudaDataType_t>(3)` is CUDA_R_8I) names no type
// the rules can read.
constexpr std::string_view kPrecisionValueTypes[] = {
    "ScalarType",       "Dtype",           "cudaDataType_t",      "cudaDataType",
    "cublasDataType_t", "cudnnDataType_t", "cublasComputeType_t", "cudaDataType_t"};

// The first of kPrecisionValueTypes that `text` (native tokens) makes from
// a value or renames: a cast in any form (`static_cast<T>(x)`,
// `reinterpret_cast<T*>`, `std::bit_cast<T>`, `(T)x`, `(enum T)x`,
// `T(x)`, `T{x}`), the type given as any template's argument but
// `optional`'s (`make<T>(2)`), renamed (`using U = T`, `typedef T U`,
// `#define U T`); and `decltype(...)` of such a value called or braced
// (`decltype(CUDA_R_32F)(2)`). Empty when none.
std::string made_precision_value(std::string_view native) {
  std::string text = blank_literals(native);
  auto skip_back = [&](size_t at) {  // before qualifiers (`c10::`, `::`), `enum`, `const`, blanks
    for (;;) {
      while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
      if (at >= 2 && text[at - 1] == ':' && text[at - 2] == ':') {
        at -= 2;
        while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
        while (at > 0 && identifier_char(text[at - 1])) --at;
        continue;
      }
      std::string_view word = word_before(text, at);
      if (word == "enum" || word == "const" || word == "volatile" || word == "struct") {
        at = text.rfind(word, at);
        continue;
      }
      return at;
    }
  };
  auto skip_forward = [&](size_t at) {  // past `*`, `&`, `const`, blanks
    for (;;) {
      while (at < text.size() &&
             (std::isspace(static_cast<unsigned char>(text[at])) || text[at] == '*' || text[at] == '&'))
        ++at;
      if (text.compare(at, 5, "const") == 0 && (at + 5 == text.size() || !identifier_char(text[at + 5]))) {
        at += 5;
        continue;
      }
      return at;
    }
  };
  for (std::string_view type : kPrecisionValueTypes) {
    for (size_t at = text.find(type); at != std::string::npos; at = text.find(type, at + 1)) {
      size_t end = at + type.size();
      if ((at > 0 && identifier_char(text[at - 1])) || (end < text.size() && identifier_char(text[end]))) continue;
      if (text.compare(end, 2, "::") == 0) continue;  // ScalarType::Float names a value
      size_t before = skip_back(at), after = skip_forward(end);
      char previous = before > 0 ? text[before - 1] : '\0', next = after < text.size() ? text[after] : '\0';
      if (next == '(' || next == '{') return std::string(type) + " made from a value";
      if (previous == '<' || next == '>') {
        size_t open = previous == '<' ? before - 1 : text.rfind('<', at);
        std::string_view template_name = open == std::string::npos ? std::string_view{} : word_before(text, open);
        if (template_name.ends_with("_cast")) return std::string(template_name) + "<" + std::string(type) + ">";
        if (!template_name.ends_with("optional")) return std::string(type) + " as a template's argument";
      }
      if (previous == '(' && next == ')') {
        char following = next_char(text, after + 1);
        if (following != ';' && following != '{' && following != ',' && following != ')' && following != '\0')
          return "(" + std::string(type) + ") cast";
      }
      // The statement around it: `using U = T;`, `typedef T U;`, `#define U T`.
      size_t start = text.find_last_of(";{}\n", at);
      std::string_view statement = std::string_view(text).substr(start == std::string::npos ? 0 : start + 1,
                                                                 at - (start == std::string::npos ? 0 : start + 1));
      statement.remove_prefix(std::min(statement.size(), statement.find_first_not_of(" \t")));
      bool directive = statement.starts_with('#') && statement.find("define") != std::string_view::npos;
      if (directive || (statement.starts_with("using") && previous == '=') || statement.starts_with("typedef"))
        return std::string(type) + " renamed";
    }
  }
  for (size_t at = text.find("decltype"); at != std::string::npos; at = text.find("decltype", at + 1)) {
    size_t open = text.find_first_not_of(" \t\n", at + 8);
    if (open == std::string::npos || text[open] != '(') continue;
    size_t close = open, depth = 0;
    for (; close < text.size(); ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')' && --depth == 0) break;
    }
    char following = next_char(text, close + 1);
    if (following != '(' && following != '{') continue;
    std::string_view inside = std::string_view(text).substr(open, close - open);
    for (std::string_view family :
         {"CUDA_R_", "CUDA_C_", "CUBLAS_COMPUTE_", "CUDNN_DATA_", "ScalarType", "kFloat", "scalar_type", "Dtype"})
      if (inside.find(family) != std::string_view::npos)
        return "decltype(" + std::string(family) + "...) made from a value";
  }
  return {};
}

// PTX matrix products on integers and bits (`mma.sync...s32.s8.s8.s32`,
// `wmma.mma.sync...u4`): the floating-point ones are named by their types above.
constexpr std::string_view kIntegerMmaTypes[] = {"s8", "u8", "s4", "u4", "b1"};
// Tensor methods of the C++ API that cast to reduced precision (`x.half()`).
constexpr std::string_view kPrecisionNativeMethods[] = {"half", "bfloat16"};
// Flags that set TF32 or other reduced precision: false is the only value a candidate may set.
constexpr std::string_view kPrecisionFlags[] = {"torch.backends.cuda.matmul.allow_tf32",
                                                "torch.backends.cudnn.allow_tf32",
                                                "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
                                                "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction"};
// Precision settings given by name: only "ieee" and "highest" keep fp32.
constexpr std::string_view kPrecisionSettings[] = {"fp32_precision", "set_float32_matmul_precision"};
// Settings a candidate may set to either value: they change no result.
// (`torch.backends.cudnn.enabled` may be set to True only: runtime_patching.)
constexpr std::string_view kFreeFlags[] = {"torch.backends.cudnn.benchmark", "torch.backends.cudnn.deterministic"};

// Parts of a torch, numpy or Triton name that make it a reduced-precision
// type, cast, table of types or setting wherever they appear in the name
// (`torch.Tensor.half`, `torch.HalfStorage.dtype`, `numpy.typecodes`,
// `torch.get_autocast_cpu_dtype`): exact parts, then parts containing one.
constexpr std::string_view kPrecisionParts[] = {"half",    "chalf",      "complex32", "typecodes",
                                                "sctypes", "sctypeDict", "typeDict"};
constexpr std::string_view kPrecisionPartInfixes[] = {
    "Half", "BFloat16", "bfloat16", "float16", "Float16", "float8", "Float8", "float4", "Float4", "autocast", "fp16",
    "bf16", "tf32", "TF32",
    // Integer, 8- and 4-bit matrix products and quantization (`torch._int_mm`,
    // `torch._scaled_mm`, `torch._weight_int8pack_mm`, `torch.ops.aten._int_mm`).
    "_int_mm", "scaled_mm", "int4pack", "int8pack", "_dyn_quant", "quantize"};

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
// names a reduced-precision type, after a "torch.", "numpy." or "np." prefix,
// a count or shape (`"2e"`, `"(2,3)f2"`) and a byte-order mark; a numpy
// string of several fields (`"e, f4"`) when every field is a type code and
// one of them is reduced.
bool reduced_precision_type_name(std::string_view name) {
  for (std::string_view prefix : {"torch.", "numpy.", "np."})
    if (name.starts_with(prefix)) name.remove_prefix(prefix.size());
  auto trimmed = [](std::string_view text) {
    size_t begin = text.find_first_not_of(' ');
    return begin == std::string_view::npos ? std::string_view{}
                                           : text.substr(begin, text.find_last_not_of(' ') - begin + 1);
  };
  // One field: its count or shape and byte order off, the code left.
  auto code_of = [&](std::string_view field) {
    field = trimmed(field);
    if (field.starts_with('(')) field.remove_prefix(std::min(field.size(), field.find(')') + 1));
    while (!field.empty() && std::isdigit(static_cast<unsigned char>(field.front()))) field.remove_prefix(1);
    if (field.size() > 1 && std::string_view("<>=|").find(field.front()) != std::string_view::npos)
      field.remove_prefix(1);
    return trimmed(field);
  };
  auto reduced = [](std::string_view code) { return listed(code, kPrecisionTypeNames) || code.starts_with("float8"); };
  // A numpy type code: a kind letter or a type's name, then a size (`f4`,
  // `float32`, `?`, `M8[ns]`); not a word (`be` of einsum's "be,e").
  auto type_code = [](std::string_view code) {
    code = code.substr(0, code.find('['));
    std::string_view kind = code.substr(0, code.find_first_of("0123456789"));
    return !kind.empty() && code.find_first_not_of("0123456789", kind.size()) == std::string_view::npos &&
           ((kind.size() == 1 && std::string_view("?bBhHiIlLqQpPefdgFDGSUVOMm").find(kind) != std::string_view::npos) ||
            listed(kind, kNumpyTypeNames));
  };
  std::vector<std::string_view> fields;
  for (size_t start = 0, depth = 0, i = 0; i <= name.size(); ++i) {
    if (i == name.size() || (name[i] == ',' && depth == 0)) {
      fields.push_back(name.substr(start, i - start));
      start = i + 1;
    } else if (name[i] == '(') {
      ++depth;
    } else if (name[i] == ')' && depth > 0) {
      --depth;
    }
  }
  if (fields.size() == 1) return reduced(code_of(fields.front()));
  bool any_reduced = false;
  for (std::string_view field : fields) {
    std::string_view code = code_of(field);
    if (!type_code(code)) return false;
    any_reduced = any_reduced || reduced(code);
  }
  return any_reduced;
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

// Whether the identifier `node` names the builtin of that name: the
// candidate defines and binds it nowhere.
bool builtin_name(const Context& c, TSNode node) {
  return c.facts().builtin_unchanged(c.text(node)) && !bound_locally(c.tree(), node);
}

// Calls whose string arguments are never types: text (str's methods,
// format, messages, exceptions, logging), names of a module's members and
// environment lookups. `"1e-6".split("e")`, `format(v, "e")`,
// `self.register_buffer("f2", t)`, `os.environ.get("MODE", "f2")` and
// `TypeError("no", "float16")` name no type.
constexpr std::string_view kTextCallees[] = {"format", "print",          "str",       "repr",
                                             "len",    "os.environ.get", "os.getenv", "os.environ.setdefault"};
constexpr std::string_view kTextMethods[] = {"split",
                                             "rsplit",
                                             "splitlines",
                                             "replace",
                                             "count",
                                             "find",
                                             "rfind",
                                             "index",
                                             "rindex",
                                             "startswith",
                                             "endswith",
                                             "partition",
                                             "rpartition",
                                             "strip",
                                             "lstrip",
                                             "rstrip",
                                             "removeprefix",
                                             "removesuffix",
                                             "join",
                                             "format",
                                             "center",
                                             "ljust",
                                             "rjust",
                                             "register_buffer",
                                             "register_parameter",
                                             "add_module",
                                             "register_module",
                                             "get_submodule",
                                             "get_parameter",
                                             "get_buffer",
                                             "debug",
                                             "info",
                                             "warning",
                                             "error",
                                             "exception",
                                             "critical",
                                             "warn"};

// Whether the call `call` takes its string arguments as text, never as a type.
bool text_call(const Context& c, TSNode call) {
  const Grammar& g = c.grammar();
  TSNode function = field(call, g.field_function);
  std::string callee = c.qualified_name(function);
  if (callee.empty() && ts_node_symbol(function) == g.identifier) {  // a builtin, unless the candidate binds the name
    if (!builtin_name(c, function)) return false;
    callee = c.text(function);
  }
  if (listed(callee, kTextCallees)) return true;
  std::string_view last = std::string_view(callee).substr(callee.rfind('.') + 1);  // npos + 1 is 0: all of it
  if (last.ends_with("Error") || last.ends_with("Exception") || last.ends_with("Warning")) return true;
  TSNode object;
  std::string_view method;
  return c.reads_attribute(function, &object, &method) && listed(method, kTextMethods);
}

// Whether the current node is a string literal naming a reduced-precision
// type (kPrecisionTypeNames) where a type is given: a call's argument (but
// a text call's, text_call), a
// keyword's value, a subscript of a torch or numpy mapping; or a field of a
// structured numpy type (`[("a", "e")]`, `{"formats": ["f2"]}`: inside
// tuples, lists and dictionaries) given as `dtype=` or `formats=`, to a numpy
// call or to `.astype`/`.view`.
bool type_named_by_string(const Context& c, std::string_view* literal) {
  const Grammar& g = c.grammar();
  static const TSSymbol kSubscript = python_symbol("subscript"), kDictionary = python_symbol("dictionary"),
                        kPair = python_symbol("pair");
  if (c.symbol() != g.string || !c.string_literal(c.node(), literal)) return false;
  // The node holding the string through containers of fields, `up` levels up.
  uint32_t up = 0;
  for (TSSymbol s = c.parent_symbol();
       s == g.tuple || s == g.list || s == kDictionary || s == kPair || s == g.parenthesized_expression;
       s = ts_node_symbol(c.ancestor(up + 1)))
    ++up;
  TSNode held = c.ancestor(up), holder = c.ancestor(up + 1);
  TSSymbol parent = ts_node_symbol(holder);
  auto torch_or_numpy_mapping = [&] {  // np.sctypeDict["e"]; a dictionary of one's own is not a type
    std::string value = c.qualified_name(ts_node_child_by_field_name(holder, "value", 5));
    return value.starts_with("torch.") || value.starts_with("numpy.");
  };
  bool keyword = parent == g.keyword_argument && ts_node_eq(field(holder, g.field_value), held);
  bool placed = parent == g.argument_list || keyword ||
                (parent == kSubscript && ts_node_eq(ts_node_child_by_field_name(holder, "subscript", 9), held) &&
                 torch_or_numpy_mapping());
  if (!placed) return false;
  if (parent == g.argument_list) {
    TSNode call = c.ancestor(up + 2);
    std::string callee = c.qualified_name(field(call, g.field_function));
    // getattr(torch, "float16") reads as torch.float16, judged as that name
    if (callee == "getattr" || callee == "hasattr" || text_call(c, call)) return false;
    TSNode object;
    std::string_view method;
    if (up > 0 && !callee.starts_with("numpy.") &&
        !(c.reads_attribute(field(call, g.field_function), &object, &method) &&
          (method == "astype" || method == "view")))
      return false;
  } else if (up > 0 && keyword) {
    std::string_view key = c.text(field(holder, g.field_name));
    if (key != "dtype" && key != "formats") return false;
  }
  return reduced_precision_type_name(*literal);
}

// Methods of str whose result is a string (`"<i2".replace("i", "f")`).
constexpr std::string_view kStringMethods[] = {
    "replace", "format",     "format_map",   "lower",        "upper",      "strip",  "lstrip", "rstrip",
    "join",    "capitalize", "title",        "swapcase",     "casefold",   "center", "ljust",  "rjust",
    "zfill",   "translate",  "removeprefix", "removesuffix", "expandtabs", "decode"};
// numpy's dtype strings as attributes (`np.dtype(np.float32).str` is "<f4").
constexpr std::string_view kStringAttributes[] = {"str", "char", "name", "descr", "kind", "typestr", "byteorder"};
// numpy's functions whose positional argument `index` is a dtype.
constexpr std::pair<std::string_view, uint32_t> kNumpyDtypePositions[] = {{"numpy.zeros", 1},
                                                                          {"numpy.ones", 1},
                                                                          {"numpy.empty", 1},
                                                                          {"numpy.full", 2},
                                                                          {"numpy.array", 1},
                                                                          {"numpy.asarray", 1},
                                                                          {"numpy.ascontiguousarray", 1},
                                                                          {"numpy.asfortranarray", 1},
                                                                          {"numpy.frombuffer", 1},
                                                                          {"numpy.fromiter", 1},
                                                                          {"numpy.arange", 3},
                                                                          {"numpy.eye", 3},
                                                                          {"numpy.identity", 1},
                                                                          {"numpy.zeros_like", 1},
                                                                          {"numpy.ones_like", 1},
                                                                          {"numpy.empty_like", 1},
                                                                          {"numpy.full_like", 2},
                                                                          {"numpy.ndarray", 1},
                                                                          {"numpy.dtype", 0}};

// Whether `node` is a string Python computes at run time: a literal or
// f-string, `+`, `%` or `*` with one, a str method's result, `str(...)`,
// `chr(...)`, a dtype's string attribute (`.str`, `.char`, `.name`, ...), an
// item of a string or of a container of strings, a conditional with one,
// or a name bound once at the top level to such.
bool string_typed(const Context& c, TSNode node, int depth = 0) {
  const Grammar& g = c.grammar();
  static const TSSymbol kSubscript = python_symbol("subscript"), kConditional = python_symbol("conditional_expression"),
                        kDictionary = python_symbol("dictionary"), kPair = python_symbol("pair");
  if (ts_node_is_null(node) || depth > 16) return false;
  TSSymbol s = ts_node_symbol(node);
  if (s == g.string || s == g.concatenated_string) return true;
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1)
    return string_typed(c, ts_node_named_child(node, 0), depth + 1);
  if (s == g.identifier) {
    if (bound_locally(c.tree(), node)) return false;
    return string_typed(c, c.facts().bound_once(c.text(node)), depth + 1);
  }
  if (s == g.binary_operator)
    return string_typed(c, field(node, g.field_left), depth + 1) ||
           string_typed(c, field(node, g.field_right), depth + 1);
  if (s == kConditional) {
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i)
      if (i != 1 && string_typed(c, ts_node_named_child(node, i), depth + 1)) return true;
    return false;
  }
  if (s == kSubscript) {
    TSNode value = ts_node_child_by_field_name(node, "value", 5);
    if (string_typed(c, value, depth + 1)) return true;
    if (!ts_node_is_null(value) && ts_node_symbol(value) == g.identifier && !bound_locally(c.tree(), value))
      value = c.facts().bound_once(c.text(value));
    if (ts_node_is_null(value)) return false;
    TSSymbol vs = ts_node_symbol(value);
    if (vs != g.list && vs != g.tuple && vs != kDictionary) return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(value); ++i) {  // a container holding a string
      TSNode item = ts_node_named_child(value, i);
      if (ts_node_symbol(item) == kPair) item = ts_node_child_by_field_name(item, "value", 5);
      if (string_typed(c, item, depth + 1)) return true;
    }
    return false;
  }
  if (s == g.attribute) {
    TSNode attribute = field(node, g.field_attribute);
    return !ts_node_is_null(attribute) && listed(c.text(attribute), kStringAttributes);
  }
  if (s != g.call) return false;
  TSNode function = field(node, g.field_function);
  TSNode object;
  std::string_view method;
  if (c.reads_attribute(function, &object, &method) && listed(method, kStringMethods)) return true;
  if (ts_node_symbol(function) != g.identifier || c.facts().defines(c.text(function))) return false;
  std::string_view callee = c.text(function);
  return callee == "str" || callee == "chr" || callee == "repr" || callee == "format" || callee == "ascii";
}

// Whether `node` is known to be no string where a dtype is given: None, a
// name the rules resolve (`numpy.float32`, `torch.float32`, judged as that
// name), a builtin type, an array's or tensor's own `.dtype` (not self's,
// which the file may set to anything), or a name every binding of which
// (assignments only, no parameter) binds such (`dt = x.dtype`).
bool known_dtype_object(const Context& c, TSNode node, int depth = 0) {
  const Grammar& g = c.grammar();
  if (ts_node_is_null(node)) return true;
  if (depth > 8) return false;
  TSSymbol s = ts_node_symbol(node);
  if (s == g.none) return true;
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1)
    return known_dtype_object(c, ts_node_named_child(node, 0), depth + 1);
  if (!c.qualified_name(node).empty()) return true;
  if (s == g.identifier) {
    std::string_view name = c.text(node);
    if ((name == "float" || name == "int" || name == "bool" || name == "complex") && builtin_name(c, node)) return true;
    int parameter = -1;
    std::span<const TSNode> sites = c.facts().binding_sites(name);
    if (sites.empty() || !ts_node_is_null(local_scope(c.tree(), node, &parameter))) return false;
    return std::all_of(sites.begin(), sites.end(), [&](TSNode site) {
      TSNode parent = ts_node_parent(site);
      return ts_node_symbol(parent) == g.assignment && ts_node_eq(field(parent, g.field_left), site) &&
             !ts_node_is_null(field(parent, g.field_right)) &&
             known_dtype_object(c, field(parent, g.field_right), depth + 1);
    });
  }
  if (s == g.attribute && c.text(field(node, g.field_attribute)) == "dtype") {
    TSNode root = field(node, g.field_object);
    while (!ts_node_is_null(root) && ts_node_symbol(root) == g.attribute) root = field(root, g.field_object);
    return !ts_node_is_null(root) && !(ts_node_symbol(root) == g.identifier && c.text(root) == "self");
  }
  // A structured type written out (`[("x", "f4"), ("i", "(2,)i8")]`,
  // `{"names": [...], "formats": [...]}`): its literal fields are judged
  // where they stand (type_named_by_string).
  static const TSSymbol kDictionary = python_symbol("dictionary"), kPair = python_symbol("pair"),
                        kInteger = python_symbol("integer");
  if (s == g.list || s == g.tuple || s == kDictionary || s == kPair) {
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
      TSNode item = ts_node_named_child(node, i);
      std::string_view literal;
      TSSymbol is = ts_node_symbol(item);
      if (!c.string_literal(item, &literal) && is != kInteger &&
          !((is == g.list || is == g.tuple || is == kDictionary || is == kPair) &&
            known_dtype_object(c, item, depth + 1)))
        return false;
    }
    return true;
  }
  if (s == g.call) {  // numpy.dtype(...) and the like, judged at their own arguments
    std::string callee = c.qualified_name(field(node, g.field_function));
    return callee.starts_with("numpy.") || callee.starts_with("torch.");
  }
  return false;
}

// The values a loop variable takes: `for t in ("f4", "f8")` around the use,
// the name bound nowhere else; nullopt otherwise.
std::optional<std::vector<std::string>> loop_values(const Context& c, TSNode name) {
  const Grammar& g = c.grammar();
  if (ts_node_symbol(name) != g.identifier || c.facts().bindings_of(c.text(name)) != 1) return std::nullopt;
  auto values_of = [&](TSNode loop) -> std::optional<std::vector<std::string>> {
    TSNode left = field(loop, g.field_left);
    if (ts_node_is_null(left) || ts_node_symbol(left) != g.identifier || c.text(left) != c.text(name))
      return std::nullopt;
    auto list = c.evaluate(field(loop, g.field_right));
    if (!list || (list->kind != Context::Value::kList && list->kind != Context::Value::kTuple)) return std::nullopt;
    std::vector<std::string> out;
    for (const Context::Value& item : list->items) {
      if (item.kind != Context::Value::kText) return std::nullopt;
      out.push_back(item.text);
    }
    return out;
  };
  for (TSNode up = ts_node_parent(name); !ts_node_is_null(up); up = ts_node_parent(up)) {
    TSSymbol s = ts_node_symbol(up);
    if (s == g.function_definition || s == g.lambda || s == g.class_definition || s == g.module) return std::nullopt;
    if (s == g.for_statement) {
      if (auto values = values_of(up)) return values;
      continue;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(up); ++i)
      if (TSNode clause = ts_node_named_child(up, i); ts_node_symbol(clause) == g.for_in_clause)
        if (auto values = values_of(clause)) return values;
  }
  return std::nullopt;
}

// A dtype given where a string names one (`.astype(x)`, `np.dtype(x)`,
// `dtype=` of numpy's calls; with `strict` false, `.view(x)` and `.type(x)`,
// which torch reads as shapes or dtype objects too): a string the checker
// computes is judged by its value (`cast`: as a cast's name, which a name
// holding a reduced type counts as); one it cannot compute is refused; and
// where `strict`, so is anything not known to be no string
// (known_dtype_object). A parameter of a function whose calls are all
// visible is judged at each call's argument. The finding's text, or empty.
std::string computed_dtype(const Context& c, TSNode node, bool strict, bool cast, int depth = 0) {
  const Grammar& g = c.grammar();
  if (ts_node_is_null(node) || depth > 8) return {};
  auto reduced = [&](const std::string& name) {
    return cast ? reduced_precision_cast_name(name) : reduced_precision_type_name(name);
  };
  std::string_view literal;
  if (c.string_literal(node, &literal)) return {};  // a literal is judged where it stands
  if (auto value = c.text_value(node)) return reduced(*value) ? *value : std::string();
  if (auto values = loop_values(c, node)) {
    for (const std::string& value : *values)
      if (reduced(value)) return value;
    return {};
  }
  if (ts_node_symbol(node) == g.identifier) {
    int parameter = -1;
    TSNode scope = local_scope(c.tree(), node, &parameter);
    if (!ts_node_is_null(scope) && parameter >= 0) {
      if (auto given = c.argument_nodes(scope, parameter, c.text(node))) {
        for (TSNode argument : *given) {
          std::string_view given_literal;
          if (c.string_literal(argument, &given_literal)) {
            if (reduced(std::string(given_literal))) return std::string(given_literal);
          } else if (std::string found = computed_dtype(c, argument, strict, cast, depth + 1); !found.empty()) {
            return found;
          }
        }
        return {};
      }
    }
  }
  if (string_typed(c, node)) return "dtype computed at run time: " + written(c.text(node));
  if (strict && !known_dtype_object(c, node)) return "dtype the checker cannot read: " + written(c.text(node));
  return {};
}

}  // namespace

// A setting a candidate may write: a precision flag set to False, a flag
// that changes no result (cudnn.benchmark) set to a boolean, cuDNN left on.
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
  if (name == "torch.backends.cudnn.enabled") return ts_node_symbol(right) == g.true_;
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
  // A string's text read as C++, its prose literals blanked (a message naming __half is none).
  if (const std::string native = blank_prose_literals(c.native_text()); !native.empty()) {
    // A math mode saved and given back (`cublasMath_t mode; cublasGetMathMode(h, &mode);
    // cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); ...; cublasSetMathMode(h, mode);`).
    std::vector<std::string_view> restored =
        restored_values(native, "cublasMath_t", "cublasGetMathMode", "cublasSetMathMode", kFp32MathModes);
    for (std::string_view token : kPrecisionStrings)
      if (token == "cublasMath_t" ? has_type_besides_declarations(native, token, restored)
                                  : has_uncompared_identifier(native, token))
        out.push_back({c.node(), std::string(token)});
    for (std::string_view prefix : kPrecisionPrefixes)
      if (std::string_view found = identifier_with_prefix(native, prefix); !found.empty())
        out.push_back({c.node(), std::string(found)});
    // A dtype made from a number (`static_cast<c10::ScalarType>(5)` is Half,
    // `cudaDataType_t(2)` is CUDA_R_16F).
    if (std::string made = made_precision_value(native); !made.empty()) out.push_back({c.node(), made});
    for (const DataTypeChoice& choice : kDataTypeChoices)
      for (size_t argument : choice.arguments)
        if (has_unlisted_argument(native, choice.function, argument, choice.arity, choice.keeps_fp32)) {
          out.push_back({c.node(), std::string(choice.function) + " with a data type other than fp32's"});
          break;
        }
    // `half` as a type only in C++ sources (a docstring's "the first half second" is prose).
    if (native.find('{') != std::string::npos && native.find(';') != std::string::npos && has_half_type(native))
      out.push_back({c.node(), "half"});
    if (std::string_view type = ptx_instruction_type(native, "mma", kIntegerMmaTypes); !type.empty())
      out.push_back({c.node(), "mma." + std::string(type)});
    for (std::string_view method : kPrecisionNativeMethods)
      if (has_member_call(native, method)) out.push_back({c.node(), "." + std::string(method) + "()"});
    for (const MathChoice& choice : kMathChoices)
      if (has_unlisted_argument(native, choice.function, choice.argument, choice.arity, choice.keeps_fp32,
                                choice.gives_back_saved ? restored : std::vector<std::string_view>{}))
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
    // A dtype string the checker cannot compute, or computes to a reduced type.
    auto judge_dtype = [&](TSNode value, bool strict, bool cast) {
      if (std::string found = computed_dtype(c, value, strict, cast); !found.empty()) out.push_back({value, found});
    };
    const std::string& callee = c.callee_name();
    bool numpy_call = keywords_function(c).starts_with("numpy.");  // `partial(np.zeros, dtype=...)` too
    for (const auto& [numpy_function, index] : kNumpyDtypePositions)
      if (callee == numpy_function) judge_dtype(positional_argument(c, index), true, false);
    bool method = !ts_node_is_null(function) && c.reads_attribute(function, &object, &name);
    if (method && name == "astype") judge_dtype(positional_argument(c, 0), true, true);
    // `.view(x)` takes shapes too; `.type(x)` only a dtype or a type's name.
    if (method && (name == "view" || name == "type") && ts_node_is_null(positional_argument(c, 1)))
      judge_dtype(positional_argument(c, 0), name == "type", true);
    if (TSNode arguments = c.argument_list(node); !ts_node_is_null(arguments))
      for (uint32_t i = 0; i < ts_node_named_child_count(arguments); ++i) {
        TSNode a = ts_node_named_child(arguments, i);
        if (ts_node_symbol(a) == g.keyword_argument && c.text(field(a, g.field_name)) == "dtype")
          judge_dtype(field(a, g.field_value),
                      numpy_call || (method && (name == "astype" || name == "view" || name == "type")), method);
      }
    if (!ts_node_is_null(function) && c.reads_attribute(function, &object, &name)) {
      if (listed(name, kPrecisionMethods)) out.push_back({function, std::string(".").append(name).append("()")});
      // x.type("torch.HalfTensor"), x.to("torch.float16"): a type by its name,
      // as any argument (`torch.Tensor.type(x, "torch.HalfTensor")`) or dtype=.
      TSNode arguments = c.argument_list(node);
      if ((name == "type" || name == "to" || name == "astype" || name == "view") && !ts_node_is_null(arguments)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(arguments); ++i) {
          TSNode argument = ts_node_named_child(arguments, i);
          if (ts_node_symbol(argument) == g.keyword_argument)
            argument = c.text(field(argument, g.field_name)) == "dtype" ? field(argument, g.field_value) : TSNode{};
          std::string_view literal;
          if (!ts_node_is_null(argument) && c.string_literal(argument, &literal) &&
              reduced_precision_cast_name(literal))
            out.push_back({argument, std::string(literal)});
        }
      }
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
