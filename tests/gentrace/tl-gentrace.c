/* See LICENSE file for copyright and license details. */
/*
 * tl-gentrace: write a synthetic PyTorch profiler (Kineto) trace.
 *
 * The trace imitates a data-parallel training run of a small
 * vision-language transformer: per step a ProfilerStep annotation,
 * python_function frames, nested aten operators, the autograd thread,
 * runtime launches, kernels on several streams, NCCL all-reduces,
 * copies, an occasional CUDA graph replay and the ac2g flows that tie
 * launches to kernels.  Everything derives from one splitmix64 stream,
 * so a seed and an option set always give the same bytes.
 *
 * The generator keeps one training step in memory and streams the
 * rest, which bounds memory whatever the requested size.  With -F
 * rocprof the same steps' GPU work is written as rocprofv3 results
 * instead (rocprof.c, through gentrace.h).  The output buffer and the
 * JSON writer are out.c's.  The generator's state is one struct gen,
 * which main() owns and every part gets by pointer; only the options
 * are global.  This file sets up the trace's shape from the seed and
 * runs the steps; step.c builds a step's events, model.c the model's
 * passes, emit.c writes them out; model.h is what they share.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gentrace.h"
#include "model.h"
#include "tl.h"

static void
usage(FILE *fp)
{
	fputs("usage: tl-gentrace [-z] [-c change] [-F format] [-s seed] "
	    "[-S size] [-n steps]\n"
	    "                   [-g gpu] [-R rank/world] [-o file]\n"
	    "       tl-gentrace -r trace [-z] [-S size] [-n copies] "
	    "[-o file]\n"
	    "       tl-gentrace -w deep|samets|names|swap:N [-o file]\n", fp);
}

/* xrealloc: tl_realloc of n elements of sz bytes, checked for overflow. */
void *
xrealloc(void *p, size_t n, size_t sz)
{
	if (n && sz > SIZE_MAX / n)
		tl_die("out of memory");
	return tl_realloc(p, n * sz);
}

struct options opt;		/* model.h */

/* ------------------------------------------------------------------ */
/* Devices, runtime calls and kernels: the tables setup() picks from. */

static const struct gpu nvgpus[] = {
	{ "NVIDIA H100 80GB HBM3", 85018279936, 9, 0, 132, 32, 65536,
	  49152, 233472, 232448, 620, 2900, A_SM90 },
	{ "NVIDIA A100-SXM4-80GB", 85095874560, 8, 0, 108, 32, 65536,
	  49152, 167936, 166912, 260, 1700, A_SM80 },
	{ "NVIDIA B200", 191503138816, 10, 0, 148, 32, 65536,
	  49152, 233472, 232448, 1100, 6000, A_SM100 },
};

static const struct gpu amdgpus[] = {
	{ "AMD Instinct MI300X", 206141652992, 9, 4, 304, 64, 131072,
	  65536, 65536, 0, 520, 3600, A_GFX942 },
	{ "AMD Instinct MI250X", 68702699520, 9, 0, 110, 64, 65536,
	  65536, 65536, 0, 160, 1300, A_GFX90A },
};

static const struct api nvapi[NAPI] = {
	[L_LAUNCH] =	{ "cudaLaunchKernel", 211, 0 },
	[L_LAUNCHEX] =	{ "cudaLaunchKernelExC", 430, 0 },
	[L_MODLAUNCH] =	{ "cuLaunchKernel", 307, 1 },
	[L_MEMCPY] =	{ "cudaMemcpyAsync", 41, 0 },
	[L_MEMSET] =	{ "cudaMemsetAsync", 51, 0 },
	[L_GRAPH] =	{ "cudaGraphLaunch", 311, 0 },
	[L_SYNC] =	{ "cudaStreamSynchronize", 131, 0 },
	[L_EVREC] =	{ "cudaEventRecord", 135, 0 },
	[L_WAIT] =	{ "cudaStreamWaitEvent", 147, 0 },
};

static const struct api amdapi[NAPI] = {
	[L_LAUNCH] =	{ "hipLaunchKernel", 107, 0 },
	[L_LAUNCHEX] =	{ "hipExtModuleLaunchKernel", 65, 0 },
	[L_MODLAUNCH] =	{ "hipModuleLaunchKernel", 169, 0 },
	[L_MEMCPY] =	{ "hipMemcpyAsync", 134, 0 },
	[L_MEMSET] =	{ "hipMemsetAsync", 159, 0 },
	[L_GRAPH] =	{ "hipGraphLaunch", 215, 0 },
	[L_SYNC] =	{ "hipStreamSynchronize", 183, 0 },
	[L_EVREC] =	{ "hipEventRecord", 56, 0 },
	[L_WAIT] =	{ "hipStreamWaitEvent", 185, 0 },
};

/* Names shared by both vendors: PyTorch compiles them for each. */
#define KN_LNF	"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)"
#define KN_LNBI	"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)"
#define KN_LNBG	"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernelTemplate<c10::BFloat16, float, 32u, 32u, 256u, false, true, false>(long, long, c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16*, c10::BFloat16*)"
#define KN_IDXSEL "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)"
#define KN_EMBB	"void at::native::(anonymous namespace)::embedding_backward_feature_kernel<c10::BFloat16, float, long>(long const*, c10::BFloat16 const*, c10::BFloat16*, int, long, int)"
#define KN_CAT	"void at::native::(anonymous namespace)::CatArrayBatchedCopy_contig<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 3, 128, 1>(at::native::(anonymous namespace)::OpaqueType<2u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)"
#define KN_LSMF	"void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, c10::BFloat16, float, float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, c10::BFloat16 const*, int)"
#define KN_LSMB	"void at::native::(anonymous namespace)::cunn_SoftMaxBackward<8, c10::BFloat16, float, float, at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(c10::BFloat16*, float const*, float const*, long)"
#define KN_NLLF	"void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)"
#define KN_NLLB	"void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, long)"
#define KN_SUM	"void at::native::reduce_kernel<128, 4, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4, 4>)"
#define KN_MEAN	"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)"
#define KN_FADD	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::plus<float>, float)"
#define KN_ADAM	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<c10::BFloat16, 4, (at::native::ADAM_MODE)1, false>, double, double, double, double, double, double, bool, double*, double*>(at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<c10::BFloat16, 4, (at::native::ADAM_MODE)1, false>, double, double, double, double, double, double, bool, double*, double*)"
/* A tab inside a kernel name: rare, but parsers must survive it. */
#define KN_TAB	"triton_poi_fused__to_copy_add\\t_0"

#define ELEM(v, f, n)	"void at::native::vectorized_elementwise_kernel<" v ", " f ", std::array<char*, " n "ul> >(int, " f ", std::array<char*, " n "ul>)"
#define F_ADD	"at::native::CUDAFunctor_add<c10::BFloat16>"
#define F_MUL	"at::native::AUnaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >"
#define F_DIV	"at::native::BUnaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> >"
#define F_GELU	"at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}"
#define F_GELUB	"at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}"
#define F_FILL	"at::native::FillFunctor<float>"
#define F_COPY	"at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)"

static const struct kdef knv[NKROLE] = {
	[K_LNF] =	{ KN_LNF, 38, 0, 32, 4, 86, L_LAUNCH },
	[K_LNBI] =	{ KN_LNBI, 40, 64, 256, 1, 78, L_LAUNCH },
	[K_LNBG] =	{ KN_LNBG, 64, 8192, 32, 8, 61, L_LAUNCH },
	[K_COPY] =	{ "void at::native::elementwise_kernel<128, 4, " F_COPY "::{lambda(int)#1}>(int, " F_COPY "::{lambda(int)#1})", 30, 0, 128, 1, 91, L_LAUNCH },
	[K_ADD] =	{ ELEM("4", F_ADD, "3"), 26, 0, 128, 1, 93, L_LAUNCH },
	[K_MUL] =	{ ELEM("4", F_MUL, "2"), 24, 0, 128, 1, 94, L_LAUNCH },
	[K_DIV] =	{ ELEM("4", F_DIV, "2"), 22, 0, 128, 1, 95, L_LAUNCH },
	[K_GELU] =	{ ELEM("4", F_GELU, "2"), 28, 0, 128, 1, 92, L_LAUNCH },
	[K_GELUB] =	{ ELEM("4", F_GELUB, "3"), 32, 0, 128, 1, 90, L_LAUNCH },
	[K_ATTF] =	{ "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)", 255, 49152, 128, 1, 12, L_LAUNCH },
	[K_ATTB0] =	{ "void pytorch_flash::flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> > >(pytorch_flash::Flash_bwd_params)", 32, 0, 256, 1, 80, L_LAUNCH },
	[K_ATTB1] =	{ "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >, false, true, false, false, false, true, false, false>(pytorch_flash::Flash_bwd_params)", 255, 98304, 256, 1, 12, L_LAUNCH },
	[K_ATTB2] =	{ "void pytorch_flash::flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> > >(pytorch_flash::Flash_bwd_params, int)", 40, 49152, 256, 1, 24, L_LAUNCH },
	[K_IDXSEL] =	{ KN_IDXSEL, 32, 0, 128, 1, 50, L_LAUNCH },
	[K_EMBB] =	{ KN_EMBB, 40, 8448, 32, 32, 48, L_LAUNCH },
	[K_CAT] =	{ KN_CAT, 32, 0, 128, 1, 88, L_LAUNCH },
	[K_LSMF] =	{ KN_LSMF, 40, 64, 1024, 1, 71, L_LAUNCH },
	[K_LSMB] =	{ KN_LSMB, 38, 64, 1024, 1, 73, L_LAUNCH },
	[K_NLLF] =	{ KN_NLLF, 32, 256, 32, 1, 2, L_LAUNCH },
	[K_NLLB] =	{ KN_NLLB, 28, 0, 32, 1, 2, L_LAUNCH },
	[K_FILL] =	{ ELEM("4", F_FILL, "1"), 16, 0, 128, 1, 95, L_LAUNCH },
	[K_SUM] =	{ KN_SUM, 40, 2048, 32, 16, 63, L_LAUNCH },
	[K_MEAN] =	{ KN_MEAN, 32, 16, 32, 16, 4, L_LAUNCH },
	[K_FADD] =	{ KN_FADD, 26, 0, 512, 1, 40, L_LAUNCH },
	[K_ADAM] =	{ KN_ADAM, 64, 0, 512, 1, 62, L_LAUNCH },
	[K_NCCL0] =	{ "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 96, 103808, 512, 1, 0, L_LAUNCHEX },
	[K_NCCL1] =	{ "ncclDevKernel_AllReduce_Sum_bf16_RING_SIMPLE(ncclDevKernelArgsStorage<4096ul>)", 128, 103808, 640, 1, 0, L_LAUNCHEX },
	[K_TAB] =	{ KN_TAB, 24, 0, 128, 1, 88, L_MODLAUNCH },
	[K_NCCLSR] =	{ "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 96, 103808, 512, 1, 0, L_LAUNCHEX },
	[K_NCCLAG] =	{ "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 96, 103808, 512, 1, 0, L_LAUNCHEX },
};

static const struct kdef kamd[NKROLE] = {
	[K_LNF] =	{ KN_LNF, 40, 0, 64, 4, 80, L_LAUNCH },
	[K_LNBI] =	{ KN_LNBI, 44, 128, 256, 1, 70, L_LAUNCH },
	[K_LNBG] =	{ KN_LNBG, 64, 8192, 64, 4, 55, L_LAUNCH },
	[K_COPY] =	{ "void at::native::elementwise_kernel_manual_unroll<128, 8, " F_COPY "::{lambda(int, bool)#1}>(int, " F_COPY "::{lambda(int, bool)#1})", 32, 0, 128, 1, 85, L_LAUNCH },
	[K_ADD] =	{ ELEM("8", F_ADD, "3"), 24, 0, 256, 1, 90, L_LAUNCH },
	[K_MUL] =	{ ELEM("8", F_MUL, "2"), 24, 0, 256, 1, 90, L_LAUNCH },
	[K_DIV] =	{ ELEM("8", F_DIV, "2"), 20, 0, 256, 1, 90, L_LAUNCH },
	[K_GELU] =	{ ELEM("8", F_GELU, "2"), 28, 0, 256, 1, 88, L_LAUNCH },
	[K_GELUB] =	{ ELEM("8", F_GELUB, "3"), 32, 0, 256, 1, 86, L_LAUNCH },
	[K_ATTF] =	{ "attn_fwd", 128, 16384, 256, 1, 20, L_MODLAUNCH },
	[K_ATTB0] =	{ "bwd_preprocess", 32, 0, 256, 1, 60, L_MODLAUNCH },
	[K_ATTB1] =	{ "bwd_kernel_dk_dv", 128, 32768, 256, 1, 16, L_MODLAUNCH },
	[K_ATTB2] =	{ "bwd_kernel_dq", 128, 32768, 256, 1, 16, L_MODLAUNCH },
	[K_IDXSEL] =	{ KN_IDXSEL, 32, 0, 512, 1, 50, L_LAUNCH },
	[K_EMBB] =	{ KN_EMBB, 40, 8448, 64, 16, 45, L_LAUNCH },
	[K_CAT] =	{ KN_CAT, 32, 0, 128, 1, 80, L_LAUNCH },
	[K_LSMF] =	{ KN_LSMF, 40, 64, 1024, 1, 66, L_LAUNCH },
	[K_LSMB] =	{ KN_LSMB, 40, 64, 1024, 1, 66, L_LAUNCH },
	[K_NLLF] =	{ KN_NLLF, 32, 256, 64, 1, 2, L_LAUNCH },
	[K_NLLB] =	{ KN_NLLB, 28, 0, 64, 1, 2, L_LAUNCH },
	[K_FILL] =	{ ELEM("8", F_FILL, "1"), 16, 0, 256, 1, 92, L_LAUNCH },
	[K_SUM] =	{ KN_SUM, 40, 2048, 64, 2, 60, L_LAUNCH },
	[K_MEAN] =	{ KN_MEAN, 32, 16, 64, 8, 4, L_LAUNCH },
	[K_FADD] =	{ KN_FADD, 28, 0, 512, 1, 40, L_LAUNCH },
	[K_ADAM] =	{ KN_ADAM, 64, 0, 512, 1, 58, L_LAUNCH },
	[K_NCCL0] =	{ "ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)", 128, 65536, 256, 1, 0, L_LAUNCH },
	[K_NCCL1] =	{ "ncclKernel_AllReduce_RING_LL_Sum_bf16(ncclDevComm*, unsigned long, ncclWork*)", 128, 65536, 256, 1, 0, L_LAUNCH },
	[K_TAB] =	{ KN_TAB, 24, 0, 256, 1, 80, L_MODLAUNCH },
	[K_NCCLSR] =	{ "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 128, 65536, 256, 1, 0, L_LAUNCH },
	[K_NCCLAG] =	{ "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 128, 65536, 256, 1, 0, L_LAUNCH },
};

#define CIJK(tr, mt, isa, wg) "Cijk_" tr "_BBS_BH_Bias_HA_S_SAV_UserArgs_MT" mt "_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA" isa "_IU1_K1_LBSPPA1024_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_8_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB8_WSGRA0_WSGRB0_WS64_WG" wg

/* GEMM and convolution kernels differ per architecture. */
static const struct kdef kgemm[5][4] = {
	[A_SM80] = {
		{ "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn", 230, 81920, 256, 1, 12, L_LAUNCH },
		{ "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_nn", 232, 98304, 256, 1, 12, L_LAUNCH },
		{ "ampere_bf16_s16816gemm_bf16_128x256_ldg8_f2f_stages_64x3_nt", 232, 98304, 256, 1, 12, L_LAUNCH },
		{ "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)", 128, 73728, 128, 1, 25, L_LAUNCH },
	},
	[A_SM90] = {
		{ "nvjet_tst_128x64_64x8_1x2_h_bz_NNT", 168, 213248, 384, 1, 18, L_LAUNCHEX },
		{ "nvjet_tst_256x128_64x4_2x1_v_bz_coopA_TNT", 168, 229376, 384, 1, 18, L_LAUNCHEX },
		{ "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", 168, 231424, 384, 1, 18, L_LAUNCHEX },
		{ "nvjet_tst_192x192_64x3_2x1_v_bz_coopB_bias_TNN", 168, 221184, 384, 1, 18, L_LAUNCHEX },
	},
	[A_SM100] = {
		{ "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT", 168, 229376, 384, 1, 18, L_LAUNCHEX },
		{ "nvjet_tst_128x256_64x4_1x2_2cta_h_bz_NNT", 168, 229376, 384, 1, 18, L_LAUNCHEX },
		{ "nvjet_tst_144x128_64x6_2x1_v_bz_bias_TNN", 168, 215040, 384, 1, 18, L_LAUNCHEX },
		{ "nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT", 128, 196608, 256, 1, 25, L_LAUNCHEX },
	},
	[A_GFX90A] = {
		{ CIJK("Alik_Bljk", "256x128x64", "90a", "64_4_1"), 256, 65536, 256, 1, 0, L_LAUNCHEX },
		{ CIJK("Ailk_Bljk", "128x128x32", "90a", "64_4_1"), 256, 32768, 256, 1, 0, L_LAUNCHEX },
		{ CIJK("Alik_Bjlk", "128x256x64", "90a", "64_4_1"), 256, 65536, 256, 1, 0, L_LAUNCHEX },
		{ CIJK("Alik_Bljk", "64x64x64", "90a", "32_8_1"), 128, 16384, 256, 1, 0, L_LAUNCHEX },
	},
	[A_GFX942] = {
		{ CIJK("Alik_Bljk", "256x128x64", "942", "64_4_1"), 256, 65536, 256, 1, 0, L_LAUNCHEX },
		{ CIJK("Ailk_Bljk", "128x128x32", "942", "64_4_1"), 256, 32768, 256, 1, 0, L_LAUNCHEX },
		{ CIJK("Alik_Bjlk", "256x256x64", "942", "64_4_1"), 256, 65536, 256, 1, 0, L_LAUNCHEX },
		{ CIJK("Alik_Bljk", "64x64x64", "942", "32_8_1"), 128, 16384, 256, 1, 0, L_LAUNCHEX },
	},
};

#define NCHW2NHWC "void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, float, false, true, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, __nv_bfloat16 const*, __nv_bfloat16*)"
#define IGEMM_FWD "igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt256x128x32_wt32x32x8_ws2x1_wr2x2_ta1x8x4x1_1x4x1x64_tb1x8x2x1_1x4x1x64"
#define IGEMM_WRW "igemm_wrw_gtcx3_nhwc_bf16_bx0_ex1_bt128x128x16_wt32x32x8_ws1x1_wr2x2_ta1x4x1x2_1x4x1x64_tb1x4x1x2_1x4x1x64_vs1_gkgs"

static const struct kdef kconv[5][3] = {	/* transform, fprop, wgrad */
	[A_SM80] = {
		{ NCHW2NHWC, 24, 0, 256, 1, 70, L_LAUNCH },
		{ "sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16_kernel", 232, 81920, 128, 1, 12, L_LAUNCH },
		{ "sm80_xmma_wgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16_kernel", 232, 81920, 128, 1, 12, L_LAUNCH },
	},
	[A_SM90] = {
		{ NCHW2NHWC, 24, 0, 256, 1, 70, L_LAUNCH },
		{ "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", 168, 213248, 384, 1, 18, L_LAUNCHEX },
		{ "sm90_xmma_wgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", 168, 213248, 384, 1, 18, L_LAUNCHEX },
	},
	[A_SM100] = {
		{ NCHW2NHWC, 24, 0, 256, 1, 70, L_LAUNCH },
		{ "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8>(cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8::Params)", 232, 98304, 256, 1, 12, L_LAUNCH },
		{ "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816wgrad_optimized_bf16_128x128_32x3_nhwc_align8>(cutlass_tensorop_bf16_s16816wgrad_optimized_bf16_128x128_32x3_nhwc_align8::Params)", 232, 98304, 256, 1, 12, L_LAUNCH },
	},
	[A_GFX90A] = {
		{ "batched_transpose_32x32_half", 32, 0, 256, 1, 60, L_LAUNCHEX },
		{ IGEMM_FWD, 128, 32768, 256, 1, 0, L_LAUNCHEX },
		{ IGEMM_WRW, 128, 32768, 256, 1, 0, L_LAUNCHEX },
	},
	[A_GFX942] = {
		{ "batched_transpose_32x32_half", 32, 0, 256, 1, 60, L_LAUNCHEX },
		{ IGEMM_FWD, 128, 32768, 256, 1, 0, L_LAUNCHEX },
		{ IGEMM_WRW, 128, 32768, 256, 1, 0, L_LAUNCHEX },
	},
};

/* ------------------------------------------------------------------ */
/* Setup and main.                                                    */

/* "[first, first + 1, ...]" of n ranks, as Kineto writes group ranks. */
static char *
rangefmt(int first, int n)
{
	char *s = xrealloc(NULL, (size_t)n * 12 + 3, 1), *p = s;
	int i;

	*p++ = '[';
	for (i = 0; i < n; i++)
		p += sprintf(p, i ? ", %d" : "%d", first + i);
	*p++ = ']';
	*p = '\0';
	return s;
}

static void
setup(struct gen *gen)
{
	static const int bs[] = { 2, 4, 8 }, ss[] = { 512, 1024, 1792 },
	    hs[] = { 1024, 1536, 2048 }, vs[] = { 32000, 50304, 151936 };
	static const char an[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
	uint64_t s = opt.seed, x, y;
	int i, arch, first;
	int64_t H, F;
	char *p;

	gen->tr.style = ((s >> 1) & 3) < 2 ? ST_KINETO :
	    ((s >> 1) & 3) == 2 ? ST_COMPACT : ST_INDENT;
	gen->tr.oneline = (s >> 3) & 1;
	gen->tr.indw = (s >> 4) & 1 ? 4 : 2;
	gen->tr.late = !(s & 1);
	gen->tr.relts = s % 3 == 0;
	gen->tr.metafirst = s % 5 == 4;
	gen->tr.stepop = s % 7 == 5;
	gen->tr.world = s % 4 == 0 ? 1 : 8;
	gen->tr.rank = gen->tr.world > 1 && s % 5 == 3 ? 3 : 0;
	if (opt.world) {
		gen->tr.world = opt.world;
		gen->tr.rank = opt.rank;
	}

	gen->rs = s;
	gen->tr.g = opt.amd ? &amdgpus[rnd(gen) % 2] : &nvgpus[rnd(gen) % 3];
	arch = gen->tr.g->arch;
	gen->api = opt.amd ? amdapi : nvapi;
	for (i = 0; i < NKROLE; i++)
		gen->kt[i] = opt.amd ? &kamd[i] : &knv[i];
	for (i = 0; i < 4; i++)
		gen->kt[K_GEMM0 + i] = &kgemm[arch][i];
	gen->kt[K_CONVT] = &kconv[arch][0];
	gen->kt[K_CONVF] = &kconv[arch][1];
	gen->kt[K_CONVW] = &kconv[arch][2];
	/* (a rank set's rank drives the GPU of its node it is) */
	i = opt.world ? gen->tr.rank % rank_gpus(gen->tr.world) : gen->tr.rank;
	gen->tr.gpupid = opt.amd ? i + 2 : i;
	gen->tr.stream[SC_] = opt.amd ? 0 : 7;
	gen->tr.stream[SCP] = opt.amd ? 1 : 13;
	gen->tr.stream[SNC] = opt.amd ? 3 : 20;
	gen->tr.pid = (int)urange(gen, 1000, 3999999);
	/* (each rank its own process, drawing nothing more) */
	gen->tr.pid += opt.world ? gen->tr.rank * 7 : 0;
	gen->tr.tid[0] = gen->tr.pid;
	gen->tr.tid[1] = gen->tr.pid + (int)urange(gen, 30, 900);

	gen->tr.L = (int)urange(gen, 2, 5);
	gen->tr.B = bs[rnd(gen) % 3];
	gen->tr.S = ss[rnd(gen) % 3];
	gen->tr.img = chance(gen, 2) ? 224 : 256;
	gen->tr.patch = 16;
	gen->tr.P = (gen->tr.img / gen->tr.patch) * (gen->tr.img /
	    gen->tr.patch);
	gen->tr.T = gen->tr.S + gen->tr.P;
	gen->tr.H = hs[rnd(gen) % 3];
	gen->tr.hd = chance(gen, 2) ? 64 : 128;
	gen->tr.nh = gen->tr.H / gen->tr.hd;
	gen->tr.F = 4 * gen->tr.H;
	gen->tr.V = vs[rnd(gen) % 3];
	gen->tr.bucket = (int)urange(gen, 1, 2);
	H = gen->tr.H;
	F = gen->tr.F;
	gen->nparams = 3 + 12 * (int64_t)gen->tr.L + 3;
	gen->pelems = H * 3 * gen->tr.patch * gen->tr.patch + H +
	    (int64_t)gen->tr.V * H + gen->tr.L * (4 * H + 3 * H * H + 3 * H +
	    H * H + H + H * F + F + F * H + H) + 2 * H + (int64_t)gen->tr.V * H;

	if (gen->tr.relts) {
		gen->tr.t0 = 500000000 + urange(gen, 0, 90000000);
		gen->tr.base = (1751410836 + urange(gen, 0,
		    5000000)) * 1000000000LL;
	} else
		gen->tr.t0 = 1752839462000000000LL + urange(gen, 0,
		    30000000000000LL);
	x = rnd(gen);
	y = rnd(gen);
	snprintf(gen->tr.traceid, sizeof(gen->tr.traceid),
	    "%016" PRIX64 "%016" PRIX64, x, y);
	p = gen->tr.tname + snprintf(gen->tr.tname, sizeof(gen->tr.tname),
	    "/tmp/tmp");
	for (i = 0; i < 8; i++)
		*p++ = an[rnd(gen) % (sizeof(an) - 1)];
	snprintf(p, sizeof(gen->tr.tname) - (size_t)(p - gen->tr.tname),
	    "/rank%d.pt.trace.json", gen->tr.rank);
	gen->ranks = rangefmt(0, gen->tr.world);
	if (opt.world) {
		i = rank_gpus(gen->tr.world);
		first = gen->tr.rank / i * i;
		gen->nranks = rangefmt(first, gen->tr.world - first < i ?
		    gen->tr.world - first : i);
		snprintf(gen->npg, sizeof(gen->npg), "%d",
		    gen->tr.rank / i + 1);
	}
	gen->stepno = urange(gen, 3, 12);
	gen->slack = gen->tr.relts ? 0 : 800;

	gen->th[0].idx = 0;
	gen->th[1].idx = 1;
	gen->th[0].now = gen->tr.t0 + urange(gen, 300000, 900000);
	for (i = 0; i < 3; i++)
		gen->sfree[i] = gen->tr.t0;
	mkmnames(gen);
}

static int64_t
getnum(const char *what, const char *s, int scaled)
{
	char *e;
	unsigned long long v;
	int64_t m = 1;

	errno = 0;
	v = strtoull(s, &e, 10);
	if (scaled && e != s) {
		switch (*e) {
		case 'k': case 'K': m = 1LL << 10; e++; break;
		case 'm': case 'M': m = 1LL << 20; e++; break;
		case 'g': case 'G': m = 1LL << 30; e++; break;
		}
	}
	if (e == s || *e != '\0' || errno == ERANGE || *s == '-' || v == 0 ||
	    v > (unsigned long long)(INT64_MAX / m)) {
		fprintf(stderr, "tl-gentrace: bad %s: %s\n", what, s);
		usage(stderr);
		exit(2);
	}
	return (int64_t)v * m;
}

/* A bad option argument: say which, and the usage; exit 2. */
static void
badarg(const char *what, const char *arg)
{
	fprintf(stderr, "tl-gentrace: bad %s: %s\n", what, arg);
	usage(stderr);
	exit(2);
}

/*
 * --help and --version, anywhere before "--" (getopt does not know
 * long options): look for them first, skipping option arguments.
 */
static void
longopts(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			exit(0);
		}
		if (strcmp(argv[i], "--version") == 0) {
			puts("tl-gentrace " TL_VERSION);
			exit(0);
		}
		if (argv[i][0] == '-' && argv[i][1] != '\0' &&
		    argv[i][2] == '\0' && strchr("csSngorwRF", argv[i][1]) != NULL)
			i++;
	}
}

/*
 * The generated trace: steps until -n of them, or the one nearest the
 * -S size, or two.
 */
static void
generate(struct gen *gen)
{
	uint64_t last, sz;
	int64_t n;

	setup(gen);
	json_layout(gen->tr.style, gen->tr.indw);
	if (opt.rocprof)
		rocprof_begin(gen);
	else
		begintrace(gen);
	for (n = 0;;) {
		last = gt_written();
		genstep(gen);
		if (opt.rocprof)
			rocprof_step(gen);
		else
			emitstep(gen);
		gen->stepno++;
		n++;
		if (opt.steps && n >= opt.steps)
			break;
		if (opt.size) {
			/* Stop at the step boundary nearest the target. */
			sz = gt_written();
			if (sz + (sz - last) / 2 >= (uint64_t)opt.size)
				break;
		} else if (!opt.steps && n >= 2)
			break;
	}
	if (opt.rocprof)
		rocprof_end(gen);
	else
		endtrace(gen);
}

int
main(int argc, char *argv[])
{
	/* static: what it holds, never freed, stays reachable to the end */
	static struct gen model = { .next_ext = 1, .next_py = 3,
	    .next_corr = 1, .next_fb = 1 };
	const char *worst = NULL;	/* -w KIND:N: a worst-case trace (worst.c) */
	const char *oname;		/* -o, or stdout, for messages */
	FILE *ofp;
	char *e;
	int c;

	tl_setprogname(argv[0]);
	longopts(argc, argv);
	opt.seed = 1;
	while ((c = getopt(argc, argv, "hzc:s:S:n:g:o:r:w:R:F:")) != -1)
		switch (c) {
		case 'F':
			if (strcmp(optarg, "kineto") == 0)
				opt.rocprof = 0;
			else if (strcmp(optarg, "rocprof") == 0)
				opt.rocprof = 1;
			else
				badarg("format", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'z':
			opt.gz = 1;
			break;
		case 'c':
			if (change_add(optarg) != 0)
				badarg("change", optarg);
			break;
		case 's':
			opt.gpu = 1;
			errno = 0;
			opt.seed = strtoull(optarg, &e, 10);
			if (e == optarg || *e != '\0' || errno == ERANGE ||
			    *optarg == '-')
				badarg("seed", optarg);
			break;
		case 'S':
			opt.size = getnum("size", optarg, 1);
			break;
		case 'n':
			opt.steps = getnum("step count", optarg, 0);
			break;
		case 'g':
			opt.gpu = 1;
			if (strcmp(optarg, "nvidia") == 0)
				opt.amd = 0;
			else if (strcmp(optarg, "amd") == 0)
				opt.amd = 1;
			else
				badarg("gpu", optarg);
			break;
		case 'o':
			opt.out = optarg;
			break;
		case 'w':
			worst = optarg;
			break;
		case 'r':
			opt.real = optarg;
			break;
		case 'R':
			if (rank_parse(optarg, &opt.rank, &opt.world) < 0)
				badarg("rank/world", optarg);
			break;
		default:
			usage(stderr);
			return 2;
		}
	if (optind != argc || (opt.real != NULL && (opt.gpu || opt.rocprof))) {
		usage(stderr);
		return 2;
	}

	if (opt.out != NULL && strcmp(opt.out, "-") != 0) {
		if ((ofp = fopen(opt.out, "wb")) == NULL)
			tl_die("%s: %s", opt.out, strerror(errno));
		oname = opt.out;
	} else {
		ofp = stdout;
		oname = "stdout";
	}
	if (worst != NULL) {
		if (worst_write(ofp, worst) < 0)
			badarg("-w", worst);
		return tl_fshut(ofp, oname);
	}
	out_start(ofp, oname, opt.gz);
	if (opt.real != NULL)
		replicate(opt.real, opt.steps, opt.size);
	else
		generate(&model);
	out_finish();
	return 0;
}
