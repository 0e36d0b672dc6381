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
 * are global.
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
static void *
xrealloc(void *p, size_t n, size_t sz)
{
	if (n && sz > SIZE_MAX / n)
		tl_die("out of memory");
	return tl_realloc(p, n * sz);
}

/* Grow a per-step array so that index cnt is valid. */
#define GROW(arr, cnt, cap) do {					\
	if ((cnt) >= (cap)) {						\
		(cap) = (cap) ? (cap) * 2 : 1024;			\
		(arr) = xrealloc((arr), (cap), sizeof(*(arr)));		\
	}								\
} while (0)

/* ------------------------------------------------------------------ */
/* Options and the per-seed shape of the trace.                       */

static struct {
	uint64_t	 seed;		/* -s */
	int64_t		 size;		/* -S in bytes, 0 if not given */
	int64_t		 steps;		/* -n, 0 if not given */
	int		 amd;		/* -g amd */
	int		 gz;		/* -z */
	int		 rocprof;	/* -F rocprof */
	int		 gpu;		/* -g or -s was given */
	const char	*out;		/* -o, NULL for stdout */
	int		 rank;		/* -R: our rank in the set */
	int		 world;		/* -R: ranks in the set, 0 without -R */
	const char	*real;		/* -r, NULL if not given */
} opt;

enum { A_SM80, A_SM90, A_SM100, A_GFX90A, A_GFX942 };

struct gpu {			/* device model */
	const char	*name;		/* deviceProperties name */
	int64_t		 mem;		/* totalGlobalMem */
	int		 major, minor;	/* compute capability or gfx version */
	int		 sms;		/* numSms (CUs on AMD) */
	int		 warp;		/* warpSize */
	int		 regs;		/* regsPerBlock */
	int		 smemblk;	/* sharedMemPerBlock */
	int		 smemsm;	/* shared memory per multiprocessor */
	int		 optin;		/* sharedMemPerBlockOptin, NVIDIA */
	int		 tflops;	/* bf16 rate our GEMMs reach */
	int		 gbs;		/* bandwidth our copies reach, GB/s */
	int		 arch;		/* kernel name family, A_* */
};

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

struct shape {		/* the per-seed shape of the trace */
	int		 style;		/* ST_* */
	int		 indw;		/* ST_INDENT: blanks per level */
	int		 oneline;	/* ST_COMPACT: no newline at all */
	int		 late;		/* header keys after traceEvents */
	int		 relts;		/* small ts plus baseTimeNanoseconds */
	int		 metafirst;	/* metadata events open traceEvents */
	int		 stepop;	/* ProfilerStep is a cpu_op */
	int		 world;		/* data-parallel size, 1 = no NCCL */
	int		 rank;		/* our rank, also the local GPU */
	int		 gpupid;	/* pid and "device" of the GPU rows */
	int		 pid;		/* host process */
	int		 tid[2];	/* main and autograd thread */
	int		 stream[3];	/* compute, copy and NCCL stream */
	const struct gpu *g;		/* device model */
	int		 L;		/* decoder layers */
	int		 B;		/* batch */
	int		 S;		/* text tokens per sample */
	int		 P;		/* image patches per sample */
	int		 T;		/* tokens per sample, S + P */
	int		 H;		/* hidden size */
	int		 nh;		/* attention heads */
	int		 hd;		/* head size */
	int		 F;		/* MLP size */
	int		 V;		/* vocabulary */
	int		 img;		/* image side, pixels */
	int		 patch;		/* patch side, pixels */
	int		 bucket;	/* decoder layers per DDP bucket */
	int64_t		 t0;		/* profiler start, ns */
	int64_t		 base;		/* baseTimeNanoseconds, relts only */
	char		 traceid[33];	/* trace_id */
	char		 tname[64];	/* traceName */
};

/* ------------------------------------------------------------------ */
/* Runtime calls and kernels.                                         */

enum {				/* runtime calls we issue */
	L_LAUNCH,		/* plain kernel launch */
	L_LAUNCHEX,		/* extended launch (cuBLAS, hipBLASLt) */
	L_MODLAUNCH,		/* module launch (Triton, aotriton) */
	L_MEMCPY,
	L_MEMSET,
	L_GRAPH,
	L_SYNC,
	L_EVREC,
	L_WAIT,
	NAPI
};

struct api {			/* a runtime or driver entry point */
	const char	*name;		/* as the tracer reports it */
	int		 cbid;		/* CUPTI cbid or roctracer cid */
	int		 driver;	/* cat is cuda_driver, not runtime */
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

enum {				/* what a kernel does for the model */
	K_GEMM0, K_GEMM1, K_GEMM2, K_GEMM3,
	K_LNF, K_LNBI, K_LNBG,
	K_COPY, K_ADD, K_MUL, K_DIV, K_GELU, K_GELUB,
	K_ATTF, K_ATTB0, K_ATTB1, K_ATTB2,
	K_IDXSEL, K_EMBB, K_CAT,
	K_CONVT, K_CONVF, K_CONVW,
	K_LSMF, K_LSMB, K_NLLF, K_NLLB, K_FILL,
	K_SUM, K_MEAN,
	K_FADD, K_ADAM,
	K_NCCL0, K_NCCL1,
	K_TAB,
	K_NCCLSR, K_NCCLAG,		/* -R only: all_to_allv, all-gather */
	NKROLE
};

struct kdef {			/* a kernel as the tracer reports it */
	const char	*name;		/* demangled name, JSON-escaped */
	int		 regs;		/* registers per thread */
	int		 smem;		/* shared memory per block */
	int		 bx, by;	/* block shape */
	int		 occ;		/* est. achieved occupancy % */
	int		 api;		/* launch call, L_* */
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
/* One training step, kept in memory until it is written out.         */

enum { H_CPU, H_UANN, H_PY, H_RT, H_INST };	/* host event categories */
enum { G_KERNEL, G_MEMCPY, G_MEMSET, G_UANN };	/* GPU event categories */
enum {				/* argument layouts of host events */
	A_OP,			/* aten op: ids, shapes */
	A_NODE,			/* autograd node: Sequence number first */
	A_EVAL,			/* evaluate_function: no shapes */
	A_ANN,			/* annotation: External id only */
	A_COMMS,		/* record_param_comms */
	A_PY,			/* python_function */
	A_RT,			/* runtime or driver call */
	A_MEM			/* [memory] instant */
};
enum { TY_BF16, TY_F32, TY_I64, TY_SCALAR, TY_LIST, TY_NONE, TY_TLIST };

static const char *const tyname[] = {
	"c10::BFloat16", "float", "long int", "Scalar", "ScalarList", "",
	"TensorList"
};

enum { IN_PLAIN, IN_LIST, IN_INT };	/* how an input's Concrete value prints */

struct inp {			/* one operator input as record_shapes saw it */
	const char	*conc;		/* Concrete Inputs text, IN_PLAIN */
	int32_t		 d[4];		/* sizes, or the value of IN_LIST/IN_INT */
	uint8_t		 ty;		/* TY_* */
	uint8_t		 nd;		/* rank; list length for IN_LIST */
	uint8_t		 tr;		/* transposed view: last strides swapped */
	uint8_t		 how;		/* IN_* */
};

struct hev {			/* host event */
	int64_t		 ts;		/* start, ns */
	int64_t		 dur;		/* duration, ns */
	const char	*name;		/* JSON-escaped; NULL is ProfilerStep#n */
	int64_t		 id;		/* External id, Python id, correlation, address */
	int64_t		 aux;		/* Python parent id (0 = null), External id of
					   a runtime call (-1 = none), bytes, elements */
	int64_t		 seq;		/* Sequence number (-1 = none), total allocated */
	int32_t		 in0;		/* first input in inp[] */
	int32_t		 nin;		/* inputs, -1 when shapes are not shown */
	int32_t		 g;		/* GPU event of a launch, -1 if none */
	int32_t		 cix;		/* record_param_comms: its collective in cv[] */
	int16_t		 modid;		/* Python module id + 1, 0 if none */
	uint8_t		 api;		/* L_* of a runtime call */
	uint8_t		 cat;		/* H_* */
	uint8_t		 kind;		/* A_* */
	uint8_t		 thr;		/* 0 main thread, 1 autograd thread */
	uint8_t		 alt;		/* written with the alternate key order */
};

struct gev {			/* GPU event */
	int64_t		 ts;		/* start, ns */
	int64_t		 dur;		/* duration, ns */
	int64_t		 lts;		/* start of the launching call, ns */
	int64_t		 ext;		/* External id, -1 if none */
	int64_t		 corr;		/* correlation id */
	int64_t		 bytes;		/* copy size; NCCL element count */
	const struct kdef *k;		/* kernel; NULL for copies, annotations */
	const char	*name;		/* copy or annotation name, NULL = step */
	uint32_t	 grid[3];	/* launch grid in blocks */
	int		 stream;	/* stream index into tr.stream */
	int32_t		 cix;		/* an NCCL kernel's collective in cv[] */
	uint8_t		 cat;		/* G_* */
	uint8_t		 lthr;		/* launching thread */
	uint8_t		 first;		/* first event of its correlation */
	uint8_t		 coll;		/* an NCCL kernel: cix is set */
	uint8_t		 dir;		/* copy direction: 0 HtoD, 1 DtoH */
};

enum {				/* autograd nodes the forward pass records */
	N_ADDMM, N_MM, N_T, N_LN, N_SDPA, N_ADD, N_GELU, N_VIEW, N_SPLIT,
	N_TRANSPOSE, N_CLONE, N_UVIEW, N_EMB, N_CONV, N_CAT, N_LOGSM, N_NLL,
	N_MEAN, N_MUL, NNODE
};

static const char *const nodename[2][NNODE] = { {
	"AddmmBackward0", "MmBackward0", "TBackward0",
	"NativeLayerNormBackward0", "ScaledDotProductFlashAttentionBackward0",
	"AddBackward0", "GeluBackward0", "ViewBackward0", "SplitBackward0",
	"TransposeBackward0", "CloneBackward0", "UnsafeViewBackward0",
	"EmbeddingBackward0", "ConvolutionBackward0", "CatBackward0",
	"LogSoftmaxBackward0", "NllLossBackward0", "MeanBackward0",
	"MulBackward0" }, {
	"AddmmBackward0", "MmBackward0", "TBackward0",
	"NativeLayerNormBackward0",
	"ScaledDotProductEfficientAttentionBackward0",
	"AddBackward0", "GeluBackward0", "ViewBackward0", "SplitBackward0",
	"TransposeBackward0", "CloneBackward0", "UnsafeViewBackward0",
	"EmbeddingBackward0", "ConvolutionBackward0", "CatBackward0",
	"LogSoftmaxBackward0", "NllLossBackward0", "MeanBackward0",
	"MulBackward0" } };

struct tape {			/* forward op the backward pass revisits */
	int64_t		 seq;		/* Sequence number of the pair */
	int64_t		 ts;		/* forward op start, for fwdbwd flows */
	int32_t		 a, b, c, d;	/* node-specific sizes */
	uint8_t		 node;		/* N_* */
	uint8_t		 flush;		/* a DDP bucket is ready after it */
};

struct fbf {			/* forward-backward flow */
	int64_t		 fts;		/* forward op start */
	int64_t		 bts;		/* backward node start */
};

struct thr {			/* simulated host thread */
	int64_t		 now;		/* its clock, ns */
	int		 idx;		/* 0 main thread, 1 autograd thread */
	int		 sp;		/* open events */
	int		 stk[64];	/* open events, indices into hv[] */
	int		 last;		/* most recently closed event */
};

/* A collective, as its NCCL kernel and record_param_comms show it. */
struct coll {
	const char	*name;		/* Collective name */
	const char	*pg;		/* Process Group Name */
	const char	*desc;		/* Process Group Description */
	const char	*ranks;		/* Process Group Ranks, not owned */
	int		 size;		/* Group size */
	int		 first;		/* its first global rank */
	int64_t		 in, out;	/* In and Out msg nelems */
	char		*insplit;	/* In split size, "[]" or "[a, b]", owned */
	char		*outsplit;	/* Out split size, owned */
};

enum { C_VLM, C_PATCH, C_CONV, C_EMB, C_LAYER, C_ATTN, C_MLP, C_GELU,
    C_LN, C_LIN, NCLS };		/* module classes, for their names */

/*
 * The generator's state: the trace's shape, the random stream, the
 * step in memory and the counters that run across steps.  main() owns
 * the one instance; every part of the generator gets it by pointer.
 */
struct gen {
	struct shape	 tr;		/* the per-seed shape of the trace */
	uint64_t	 rs;		/* random generator state */
	const struct api *api;		/* table of the chosen flavour */
	const struct kdef *kt[NKROLE];	/* kernels of the chosen device */
	const char	*evalname[NNODE];	/* "autograd::engine::..." */
	char		**mname[NCLS];	/* "nn.Module: Cls_k", built once */
	struct hev	*hv;		/* host events of the step */
	int		 nhv;		/* their number */
	int		 hvcap;		/* and room */
	struct gev	*gv;		/* GPU events of the step */
	int		 ngv;		/* their number */
	int		 gvcap;		/* and room */
	struct inp	*inp;		/* inputs of the step's ops */
	int		 ninp;		/* their number */
	int		 inpcap;	/* and room */
	struct tape	*tp;		/* autograd tape of the step */
	int		 ntp;		/* its length */
	int		 tpcap;		/* and room */
	struct fbf	*fb;		/* fwdbwd flows of the step */
	int		 nfb;		/* their number */
	int		 fbcap;		/* and room */
	int64_t		*allocs;	/* live allocations, freed later */
	int		 nalloc;	/* their number */
	int		 alloccap;	/* and room */
	struct thr	 th[2];		/* main and autograd thread */
	int64_t		 sfree[3];	/* per stream: idle from, ns */
	int64_t		 next_ext;	/* External id, from 1 */
	int64_t		 next_py;	/* Python id (1, 2: the top frames) */
	int64_t		 next_corr;	/* correlation id, from 1 */
	int64_t		 next_seq;	/* Sequence number */
	int64_t		 next_fb;	/* fwdbwd flow id, from 1 */
	int64_t		 evidx;		/* Ev Idx */
	int64_t		 stepno;	/* number in ProfilerStep#n */
	int64_t		 memtot;	/* Total Allocated for [memory] */
	int64_t		 nparams;	/* parameter tensors */
	int64_t		 pelems;	/* parameter elements */
	int		 bleed;		/* nesting bleed still owed this step */
	/*
	 * Extra host gap, ns.  A double holds epoch-scale microseconds to
	 * only a quarter microsecond, so there gaps grow enough for
	 * consumers that parse times as doubles to still see strict nesting.
	 */
	int64_t		 slack;
	char		*ranks;		/* "[0, 1, ...]" of the default group */
	char		*nranks;	/* -R: the same of our node's group */
	char		 npg[16];	/* -R: our node's group's name */
	int64_t		 ncoll;		/* -R: collectives so far, all groups */
	struct coll	*cv;		/* this step's collectives */
	int		 ncv;		/* their number */
	int		 cvcap;		/* and room */
};

/* ------------------------------------------------------------------ */
/* Random numbers: splitmix64, so output depends on the seed alone.   */

static uint64_t
rnd(struct gen *gen)
{
	uint64_t z;

	z = (gen->rs += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int64_t
urange(struct gen *gen, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(gen) % (uint64_t)(hi - lo + 1));
}

static int
chance(struct gen *gen, unsigned n)
{
	return rnd(gen) % n == 0;
}

/* Real durations wobble a few percent from step to step. */
static int64_t
jitter(struct gen *gen, int64_t v)
{
	return v + (v / 1000) * urange(gen, -60, 60);
}

enum { SC_, SCP, SNC };		/* stream indices: compute, copy, NCCL */

#define BF	TY_BF16

static int64_t
imax(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Begin a host event on t; it stays open until end(). */
static int
beg(struct gen *gen, struct thr *t, int cat, const char *name)
{
	struct hev *h;
	int i, j, c;

	GROW(gen->hv, gen->nhv, gen->hvcap);
	i = gen->nhv++;
	h = &gen->hv[i];
	t->now += (cat == H_PY ? urange(gen, 500, 2500) :
	    urange(gen, 250, 1500)) + gen->slack;
	memset(h, 0, sizeof(*h));
	h->ts = t->now;
	h->name = name;
	h->cat = (uint8_t)cat;
	h->thr = (uint8_t)t->idx;
	h->alt = chance(gen, 48);
	h->seq = -1;
	h->nin = -1;
	h->in0 = gen->ninp;
	h->g = -1;
	switch (cat) {
	case H_CPU:
		h->kind = A_OP;
		h->id = gen->next_ext++;
		h->nin = 0;
		break;
	case H_UANN:
		h->kind = A_ANN;
		h->id = gen->next_ext++;
		break;
	case H_PY:
		h->kind = A_PY;
		h->id = gen->next_py++;
		/* Frames outside any other hang off main(), id 2. */
		h->aux = t->idx == 0 ? 2 : 0;
		for (j = t->sp - 1; j >= 0; j--)
			if (gen->hv[t->stk[j]].cat == H_PY) {
				h->aux = gen->hv[t->stk[j]].id;
				break;
			}
		break;
	case H_RT:
		h->kind = A_RT;
		h->id = gen->next_corr++;
		h->aux = -1;
		for (j = t->sp - 1; j >= 0; j--) {
			c = gen->hv[t->stk[j]].cat;
			if (c == H_CPU || c == H_UANN) {
				h->aux = gen->hv[t->stk[j]].id;
				break;
			}
		}
		break;
	}
	if (t->sp >= 64)
		tl_die("call stack too deep");
	t->stk[t->sp++] = i;
	return i;
}

static void
end(struct gen *gen, struct thr *t)
{
	int i = t->stk[--t->sp];

	t->now += urange(gen, 200, 1100) + gen->slack;
	gen->hv[i].dur = t->now - gen->hv[i].ts;
	t->last = i;
}

static void
endn(struct gen *gen, struct thr *t, int n)
{
	while (n-- > 0)
		end(gen, t);
}

/*
 * Close the open event a little before its last child ends.  Real
 * traces show such sub-microsecond bleeds from clock rounding, and
 * consumers that rebuild the call tree must cope with them.
 */
static void
endbleed(struct gen *gen, struct thr *t)
{
	int i = t->stk[--t->sp];
	int64_t b = urange(gen, 100, 700);

	if (b > gen->hv[t->last].dur / 2)
		b = gen->hv[t->last].dur / 2;
	gen->hv[i].dur = t->now - b - gen->hv[i].ts;
	t->now += urange(gen, 1200, 2500);
	t->last = i;
}

/* A leaf op: some work, then close it. */
static void
leaf(struct gen *gen, struct thr *t)
{
	t->now += urange(gen, 300, 2500) + gen->slack;
	end(gen, t);
}

static int
op(struct gen *gen, struct thr *t, const char *name)
{
	return beg(gen, t, H_CPU, name);
}

static void
py(struct gen *gen, struct thr *t, const char *name)
{
	beg(gen, t, H_PY, name);
}

/* An op autograd records: it gets a Sequence number and a tape entry. */
static int
opseq(struct gen *gen, struct thr *t, const char *name, int node, int a, int b,
    int c, int d)
{
	struct tape *e;
	int i = op(gen, t, name);

	gen->hv[i].seq = gen->next_seq++;
	GROW(gen->tp, gen->ntp, gen->tpcap);
	e = &gen->tp[gen->ntp++];
	e->seq = gen->hv[i].seq;
	e->ts = gen->hv[i].ts;
	e->node = (uint8_t)node;
	e->flush = 0;
	e->a = a;
	e->b = b;
	e->c = c;
	e->d = d;
	return i;
}

/* Inputs attach to the op begun last. */
static void
addin(struct gen *gen, int ty, int nd, int tr_, int how, const char *conc,
    int64_t a, int64_t b, int64_t c, int64_t d)
{
	struct inp *p;

	GROW(gen->inp, gen->ninp, gen->inpcap);
	p = &gen->inp[gen->ninp++];
	p->conc = conc;
	p->ty = (uint8_t)ty;
	p->nd = (uint8_t)nd;
	p->tr = (uint8_t)tr_;
	p->how = (uint8_t)how;
	p->d[0] = (int32_t)a;
	p->d[1] = (int32_t)b;
	p->d[2] = (int32_t)c;
	p->d[3] = (int32_t)d;
	gen->hv[gen->nhv - 1].nin++;
}

#define T0(ty)			addin(gen, ty, 0, 0, IN_PLAIN, "", 0, 0, 0, 0)
#define T1(ty, a)		addin(gen, ty, 1, 0, IN_PLAIN, "", a, 0, 0, 0)
#define T2(ty, a, b)		addin(gen, ty, 2, 0, IN_PLAIN, "", a, b, 0, 0)
#define T3(ty, a, b, c)		addin(gen, ty, 3, 0, IN_PLAIN, "", a, b, c, 0)
#define T4(ty, a, b, c, d)	addin(gen, ty, 4, 0, IN_PLAIN, "", a, b, c, d)
#define TT(ty, a, b)		addin(gen, ty, 2, 1, IN_PLAIN, "", a, b, 0, 0)
#define SC(s)		addin(gen, TY_SCALAR, 0, 0, IN_PLAIN, s, 0, 0, 0, 0)
#define SI(v)		addin(gen, TY_SCALAR, 0, 0, IN_INT, NULL, v, 0, 0, 0)
#define L0()		addin(gen, TY_LIST, 0, 0, IN_LIST, NULL, 0, 0, 0, 0)
#define L1(a)		addin(gen, TY_LIST, 1, 0, IN_LIST, NULL, a, 0, 0, 0)
#define L2(a, b)	addin(gen, TY_LIST, 2, 0, IN_LIST, NULL, a, b, 0, 0)
#define L3(a, b, c)	addin(gen, TY_LIST, 3, 0, IN_LIST, NULL, a, b, c, 0)
#define L4(a, b, c, d)	addin(gen, TY_LIST, 4, 0, IN_LIST, NULL, a, b, c, d)
#define NO()		addin(gen, TY_NONE, 0, 0, IN_PLAIN, "", 0, 0, 0, 0)
#define TL()		addin(gen, TY_TLIST, 0, 0, IN_PLAIN, "", 0, 0, 0, 0)

/* A [memory] instant event: the caching allocator hands out bytes. */
static void
memev(struct gen *gen, struct thr *t, int64_t bytes)
{
	struct hev *h;
	int64_t addr;

	GROW(gen->hv, gen->nhv, gen->hvcap);
	h = &gen->hv[gen->nhv++];
	memset(h, 0, sizeof(*h));
	if (bytes > 0) {
		addr = 0x7f0000000000LL +
		    (int64_t)(rnd(gen) % 0x3000000000ULL) * 512;
		GROW(gen->allocs, gen->nalloc + 1, gen->alloccap);
		gen->allocs[gen->nalloc++] = addr;
		gen->allocs[gen->nalloc++] = bytes;
	} else
		addr = 0;
	gen->memtot += bytes;
	h->ts = t->now;
	h->name = "[memory]";
	h->cat = H_INST;
	h->kind = A_MEM;
	h->thr = (uint8_t)t->idx;
	h->id = addr;
	h->aux = bytes;
	h->seq = gen->memtot;
	h->nin = -1;
	h->g = -1;
}

/* Free the most recent allocation, as backward releases activations. */
static void
memfree(struct gen *gen, struct thr *t)
{
	int64_t addr, bytes;

	if (gen->nalloc < 2)
		return;
	bytes = gen->allocs[--gen->nalloc];
	addr = gen->allocs[--gen->nalloc];
	memev(gen, t, -bytes);
	gen->hv[gen->nhv - 1].id = addr;
}

static void
f_empty(struct gen *gen, struct thr *t, int64_t a, int64_t b)
{
	op(gen, t, "aten::empty");
	L2(a, b); SC("15"); SC("0"); NO(); NO(); NO();
	t->now += urange(gen, 300, 1500);
	if (chance(gen, 3))
		memev(gen, t, a * b * 2);
	end(gen, t);
}

/* ------------------------------------------------------------------ */
/* GPU work.                                                          */

static int
gnew(struct gen *gen)
{
	GROW(gen->gv, gen->ngv, gen->gvcap);
	memset(&gen->gv[gen->ngv], 0, sizeof(gen->gv[0]));
	gen->gv[gen->ngv].ext = -1;
	return gen->ngv++;
}

/* Work starts after its launch reaches the GPU and the stream drains. */
static int64_t
gstart(struct gen *gen, int s, int64_t lts)
{
	return imax(lts + urange(gen, 2500, 9000),
	    gen->sfree[s] + urange(gen, 600, 2400));
}

static int64_t
gemm_ns(struct gen *gen, int64_t m, int64_t n, int64_t k)
{
	return 2 * m * n * k / ((int64_t)gen->tr.g->tflops * 1000) + 3000;
}

static int64_t
mem_ns(struct gen *gen, int64_t bytes)
{
	return bytes / gen->tr.g->gbs + 2000;
}

static uint32_t
clampgrid(int64_t v)
{
	if (v < 1)
		return 1;
	if (v > 2147483647)
		return 2147483647;
	return (uint32_t)v;
}

/* Grid of an elementwise kernel: four elements a thread. */
static uint32_t
egrid(struct gen *gen, int role, int64_t numel)
{
	int64_t per = (int64_t)gen->kt[role]->bx * gen->kt[role]->by * 4;

	return clampgrid((numel + per - 1) / per);
}

static int
gemmrole(int64_t m, int64_t n, int64_t k)
{
	return K_GEMM0 + (int)((m / 64 + n / 64 * 3 + k / 64 * 7) % 4);
}

/* The innermost cpu_op open on t, for -c op:NAME; NULL if none. */
static const char *
curop(struct gen *gen, const struct thr *t)
{
	int j;

	for (j = t->sp - 1; j >= 0; j--)
		if (gen->hv[t->stk[j]].cat == H_CPU)
			return gen->hv[t->stk[j]].name;
	return NULL;
}

static int
launch(struct gen *gen, struct thr *t, int role, int s, int64_t ns, uint32_t gx,
    uint32_t gy)
{
	const struct kdef *k = gen->kt[role];
	int r, g;

	r = beg(gen, t, H_RT, gen->api[k->api].name);
	g = gnew(gen);
	gen->hv[r].api = (uint8_t)k->api;
	gen->hv[r].g = g;
	gen->gv[g].k = k;
	gen->gv[g].cat = G_KERNEL;
	gen->gv[g].lts = gen->hv[r].ts;
	gen->gv[g].ext = gen->hv[r].aux;
	gen->gv[g].corr = gen->hv[r].id;
	gen->gv[g].stream = s;
	gen->gv[g].lthr = (uint8_t)t->idx;
	gen->gv[g].first = 1;
	gen->gv[g].grid[0] = gx ? gx : 1;
	gen->gv[g].grid[1] = gy ? gy : 1;
	gen->gv[g].grid[2] = 1;
	gen->gv[g].ts = gstart(gen, s, gen->hv[r].ts);
	/* Tiny kernels sometimes round to zero: keep that case alive. */
	gen->gv[g].dur = chance(gen, 400) ? 0 : jitter(gen, ns);
	gen->gv[g].dur = change_dur(curop(gen, t), k->name, gen->gv[g].dur);
	gen->sfree[s] = gen->gv[g].ts + gen->gv[g].dur;
	t->now += urange(gen, 2500, 7000);
	if (chance(gen, 100))
		t->now += urange(gen, 10000, 40000);
	end(gen, t);
	return g;
}

static void
memop(struct gen *gen, struct thr *t, int cat, const char *name, int s,
    int64_t bytes, int dir)
{
	int r, g;

	r = beg(gen, t, H_RT,
	    gen->api[cat == G_MEMCPY ? L_MEMCPY : L_MEMSET].name);
	g = gnew(gen);
	gen->hv[r].api = cat == G_MEMCPY ? L_MEMCPY : L_MEMSET;
	gen->hv[r].g = g;
	gen->gv[g].cat = (uint8_t)cat;
	gen->gv[g].name = name;
	gen->gv[g].bytes = bytes;
	gen->gv[g].dir = (uint8_t)dir;
	gen->gv[g].lts = gen->hv[r].ts;
	gen->gv[g].ext = gen->hv[r].aux;
	gen->gv[g].corr = gen->hv[r].id;
	gen->gv[g].stream = s;
	gen->gv[g].lthr = (uint8_t)t->idx;
	gen->gv[g].first = 1;
	gen->gv[g].ts = gstart(gen, s, gen->hv[r].ts);
	/* Host copies cross PCIe; device fills run at memory speed. */
	gen->gv[g].dur = change_dur(curop(gen, t), name, jitter(gen,
	    cat == G_MEMCPY ? bytes / 24 + 1500 : mem_ns(gen, bytes)));
	gen->sfree[s] = gen->gv[g].ts + gen->gv[g].dur;
	t->now += urange(gen, 3000, 9000);
	end(gen, t);
}

/* A runtime call with no GPU activity of its own. */
static void
rtcall(struct gen *gen, struct thr *t, int a)
{
	int r = beg(gen, t, H_RT, gen->api[a].name);

	gen->hv[r].api = (uint8_t)a;
	t->now += urange(gen, 800, 3000);
	end(gen, t);
}

/* One graph launch replays many kernels under one correlation id. */
static void
graph(struct gen *gen, struct thr *t, int nk, int64_t ns)
{
	int r, g, i;

	r = beg(gen, t, H_RT, gen->api[L_GRAPH].name);
	gen->hv[r].api = L_GRAPH;
	for (i = 0; i < nk; i++) {
		g = gnew(gen);
		if (i == 0)
			gen->hv[r].g = g;
		gen->gv[g].k = gen->kt[i == 0 ? K_FADD : K_ADAM];
		gen->gv[g].cat = G_KERNEL;
		gen->gv[g].lts = gen->hv[r].ts;
		gen->gv[g].corr = gen->hv[r].id;
		gen->gv[g].stream = SC_;
		gen->gv[g].lthr = (uint8_t)t->idx;
		gen->gv[g].first = i == 0;
		gen->gv[g].grid[0] = clampgrid(gen->pelems / nk / 65536 + 1);
		gen->gv[g].grid[1] = gen->gv[g].grid[2] = 1;
		gen->gv[g].ts = i == 0 ? gstart(gen, SC_, gen->hv[r].ts) :
		    gen->sfree[SC_] + urange(gen, 300, 1200);
		gen->gv[g].dur = change_dur(curop(gen, t), gen->gv[g].k->name,
		    jitter(gen, i == 0 ? 4000 : ns));
		gen->sfree[SC_] = gen->gv[g].ts + gen->gv[g].dur;
	}
	t->now += urange(gen, 12000, 40000);
	end(gen, t);
}

/* Block until every stream drains, as loss.item() does. */
static void
syncall(struct gen *gen, struct thr *t)
{
	int r = beg(gen, t, H_RT, gen->api[L_SYNC].name);

	gen->hv[r].api = L_SYNC;
	t->now = imax(t->now + urange(gen, 1000, 3000),
	    imax(imax(gen->sfree[SC_], gen->sfree[SCP]),
	    gen->sfree[SNC]) + urange(gen, 1500, 4000));
	end(gen, t);
}

/* A new collective of this step; the split strings are copied. */
static int
newcoll(struct gen *gen, const char *name, const char *pg, const char *desc,
    const char *rk, int size, int first, int64_t in, int64_t out,
    const char *insplit, const char *outsplit)
{
	struct coll *c;

	GROW(gen->cv, gen->ncv, gen->cvcap);
	c = &gen->cv[gen->ncv];
	c->name = name;
	c->pg = pg;
	c->desc = desc;
	c->ranks = rk;
	c->size = size;
	c->first = first;
	c->in = in;
	c->out = out;
	c->insplit = tl_strdup(insplit);
	c->outsplit = tl_strdup(outsplit);
	return gen->ncv++;
}

/*
 * -R: the NCCL kernel g of a group of n ranks from first waits for the
 * last of them to arrive: it starts when we do and ends when the
 * straggler's does (ranks.c).  The stream is busy until the latest end.
 */
static void
arrive(struct gen *gen, int g, int first, int n)
{
	int64_t d, late, endj, ts0 = gen->gv[g].ts, dur0 = gen->gv[g].dur;

	if (!opt.world)
		return;
	rank_arrival(opt.seed, gen->ncoll++, gen->tr.world, first, n,
	    gen->tr.rank, &d, &late, &endj);
	gen->gv[g].ts = ts0 + d;
	gen->gv[g].dur = dur0 + late - d + endj;
	gen->sfree[gen->gv[g].stream] = ts0 + late + dur0 + 500;
}

static void
allreduce(struct gen *gen, struct thr *t, int64_t nelem)
{
	int c, g;
	int64_t bytes = nelem * 2, ns;

	op(gen, t, "nccl:all_reduce");
	gen->hv[gen->nhv - 1].nin = -1;
	c = op(gen, t, "record_param_comms");
	gen->hv[c].kind = A_COMMS;
	gen->hv[c].aux = nelem;
	T1(BF, nelem); NO(); NO(); SC("0"); NO(); L0(); L0(); SC("0");
	SC("1"); SI(gen->tr.world);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	/* The NCCL stream waits for the gradients it reduces. */
	gen->sfree[SNC] = imax(gen->sfree[SNC], gen->sfree[SC_]);
	ns = bytes * 2 * (gen->tr.world - 1) / gen->tr.world / 180 + 18000;
	g = launch(gen, t, bytes < (4 << 20) ? K_NCCL0 : K_NCCL1, SNC, ns,
	    gen->tr.g->sms / 4, 1);
	gen->gv[g].coll = 1;
	gen->gv[g].bytes = nelem;
	gen->gv[g].cix = gen->hv[c].cix = newcoll(gen, "allreduce", "0",
	    "default_pg", gen->ranks, gen->tr.world, 0, nelem, nelem, "[]",
	    "[]");
	arrive(gen, g, 0, gen->tr.world);
	end(gen, t);
	end(gen, t);
}

/* "[a, b, ...]" of v[0..n), a Python list as Kineto writes split sizes. */
static char *
listfmt(const int64_t *v, int n)
{
	char *s = xrealloc(NULL, (size_t)n * 22 + 3, 1), *p = s;
	int i;

	*p++ = '[';
	for (i = 0; i < n; i++)
		p += sprintf(p, i ? ", %" PRId64 : "%" PRId64, v[i]);
	*p++ = ']';
	*p = '\0';
	return s;
}

/*
 * -R: an MoE token exchange, all_to_allv over every rank, with split
 * sizes that differ from rank to rank (ranks.c).
 */
static void
alltoallv(struct gen *gen, struct thr *t)
{
	int64_t *in, *out, sin = 0, sout = 0;
	char *is, *os;
	int c, g, j;

	in = xrealloc(NULL, (size_t)gen->tr.world, sizeof(*in));
	out = xrealloc(NULL, (size_t)gen->tr.world, sizeof(*out));
	rank_splits(opt.seed, gen->ncoll, gen->tr.world, gen->tr.rank, in, out);
	for (j = 0; j < gen->tr.world; j++) {
		sin += in[j];
		sout += out[j];
	}
	is = listfmt(in, gen->tr.world);
	os = listfmt(out, gen->tr.world);
	op(gen, t, "nccl:all_to_all");
	gen->hv[gen->nhv - 1].nin = -1;
	c = op(gen, t, "record_param_comms");
	gen->hv[c].kind = A_COMMS;
	gen->hv[c].aux = sin;
	T1(BF, sin); T1(BF, sout); SC("0"); NO(); L1(gen->tr.world);
	L1(gen->tr.world);
	SC("0"); SC("1"); SI(gen->tr.world);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	gen->sfree[SNC] = imax(gen->sfree[SNC], gen->sfree[SC_]);
	/* (one duration on every rank: the schedules stay the same) */
	g = launch(gen, t, K_NCCLSR, SNC, 30000 + (int64_t)gen->tr.world * 2000,
	    gen->tr.g->sms / 4, 1);
	gen->gv[g].coll = 1;
	gen->gv[g].bytes = sin;
	gen->gv[g].cix = gen->hv[c].cix = newcoll(gen, "all_to_allv", "0",
	    "default_pg", gen->ranks, gen->tr.world, 0, sin, sout, is, os);
	arrive(gen, g, 0, gen->tr.world);
	free(in);
	free(out);
	free(is);
	free(os);
	end(gen, t);
	end(gen, t);
}

/*
 * -R: an all-gather inside our node's group, a process group of its
 * own (PyTorch names groups in order of creation: node k's is k + 1).
 */
static void
nodegather(struct gen *gen, struct thr *t)
{
	int gpn = rank_gpus(gen->tr.world), first = gen->tr.rank / gpn * gpn;
	int n = gen->tr.world - first < gpn ? gen->tr.world - first : gpn;
	int64_t nelem = (int64_t)gen->tr.H * 1024;
	int c, g;

	op(gen, t, "nccl:_all_gather_base");
	gen->hv[gen->nhv - 1].nin = -1;
	c = op(gen, t, "record_param_comms");
	gen->hv[c].kind = A_COMMS;
	gen->hv[c].aux = nelem;
	T1(BF, nelem * n); T1(BF, nelem); SC("0"); NO(); L0(); L0();
	SC("0"); SC("1"); SI(n);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	gen->sfree[SNC] = imax(gen->sfree[SNC], gen->sfree[SC_]);
	g = launch(gen, t, K_NCCLAG, SNC, 25000, gen->tr.g->sms / 4, 1);
	gen->gv[g].coll = 1;
	gen->gv[g].bytes = nelem;
	gen->gv[g].cix = gen->hv[c].cix = newcoll(gen, "_allgather_base",
	    gen->npg, "undefined", gen->nranks, n, first, nelem, nelem * n,
	    "[]", "[]");
	arrive(gen, g, first, n);
	end(gen, t);
	end(gen, t);
}

/* ------------------------------------------------------------------ */
/* The model: a patch-embedding stem and a text embedding feeding     */
/* L decoder layers, an LM head and a cross-entropy loss.             */

/* A non-ASCII path keeps \u escapes in every trace. */
#define MODEL_PY	"my_project/caf\\u00e9/model.py"
/* Quotes and backslashes in a user annotation. */
#define LOAD_NAME	"load_batch \\\"train\\\" C:\\\\data\\\\shard_0"

static const char *const clsname[NCLS] = {
	"VLM", "PatchEmbed", "Conv2d", "Embedding", "DecoderLayer",
	"Attention", "MLP", "GELU", "LayerNorm", "Linear"
};

static char *
xstrdupf(const char *fmt, ...)
{
	va_list ap;
	char buf[256], *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		tl_die("name too long");
	p = xrealloc(NULL, (size_t)n + 1, 1);
	memcpy(p, buf, (size_t)n + 1);
	return p;
}

static void
mkmnames(struct gen *gen)
{
	int c, k, n = 4 * gen->tr.L + 2;

	for (c = 0; c < NCLS; c++) {
		gen->mname[c] = xrealloc(NULL, (size_t)n, sizeof(char *));
		for (k = 0; k < n; k++)
			gen->mname[c][k] = xstrdupf("nn.Module: %s_%d",
			    clsname[c], k);
	}
	for (k = 0; k < NNODE; k++)
		gen->evalname[k] =
		    xstrdupf("autograd::engine::evaluate_function: %s",
		    nodename[opt.amd][k]);
}

/* Python frames of a module call, innermost its forward(). */
static void
mod(struct gen *gen, struct thr *t, int cls, int k, const char *fwd)
{
	int i;

	py(gen, t, "torch/nn/modules/module.py(1751): _wrapped_call_impl");
	py(gen, t, "torch/nn/modules/module.py(1762): _call_impl");
	i = beg(gen, t, H_PY, gen->mname[cls][k]);
	gen->hv[i].modid = (int16_t)(k + 1);
	py(gen, t, fwd);
}

static int64_t
tokens(struct gen *gen)
{
	return (int64_t)gen->tr.B * gen->tr.T;
}

/* aten::t of a weight [a, b]; only the forward pass records it. */
static void
f_t(struct gen *gen, struct thr *t, int a, int b, int fwd)
{
	if (fwd)
		opseq(gen, t, "aten::t", N_T, a, b, 0, 0);
	else
		op(gen, t, "aten::t");
	T2(BF, a, b);
	op(gen, t, "aten::transpose");
	T2(BF, a, b); SC("0"); SC("1");
	op(gen, t, "aten::as_strided");
	T2(BF, a, b); L2(b, a); L2(1, b); NO();
	leaf(gen, t);
	if (gen->bleed) {
		endbleed(gen, t);
		gen->bleed = 0;
	} else
		end(gen, t);
	end(gen, t);
}

static void
f_view(struct gen *gen, struct thr *t, int node, int64_t a, int64_t b,
    int64_t c, int64_t d)
{
	if (node >= 0)
		opseq(gen, t, "aten::view", node, (int)(a * b), (int)(c * d), 0,
		    0);
	else
		op(gen, t, "aten::view");
	T2(BF, a * b, c * d); L4(a, b, c, d);
	leaf(gen, t);
}

static void
f_linear(struct gen *gen, struct thr *t, int k, int64_t M, int K, int N,
    int bias)
{
	int role = gemmrole(M, N, K);

	mod(gen, t, C_LIN, k, "torch/nn/modules/linear.py(125): forward");
	py(gen, t, "<built-in function linear>");
	op(gen, t, "aten::linear");
	T3(BF, gen->tr.B, gen->tr.T, K); T2(BF, N, K);
	if (bias)
		T1(BF, N);
	else
		NO();
	f_t(gen, t, N, K, 1);
	if (bias) {
		opseq(gen, t, "aten::addmm", N_ADDMM, (int)M, K, N, 0);
		T1(BF, N); T2(BF, M, K); TT(BF, K, N); SC("1"); SC("1");
		launch(gen, t, role, SC_, gemm_ns(gen, M, N, K),
		    clampgrid((M + 127) / 128 * ((N + 127) / 128)), 1);
		end(gen, t);
	} else {
		op(gen, t, "aten::matmul");
		T3(BF, gen->tr.B, gen->tr.T, K); TT(BF, K, N);
		f_view(gen, t, -1, 1, M, 1, K);
		opseq(gen, t, "aten::mm", N_MM, (int)M, K, N, 0);
		T2(BF, M, K); TT(BF, K, N);
		launch(gen, t, role, SC_, gemm_ns(gen, M, N, K),
		    clampgrid((M + 127) / 128 * ((N + 127) / 128)), 1);
		end(gen, t);
		opseq(gen, t, "aten::_unsafe_view", N_UVIEW, (int)M, N, 0, 0);
		T2(BF, M, N); L3(gen->tr.B, gen->tr.T, N);
		leaf(gen, t);
		end(gen, t);
	}
	end(gen, t);
	endn(gen, t, 5);
}

static int
f_ln(struct gen *gen, struct thr *t, int k)
{
	int64_t M = tokens(gen);
	int e;

	mod(gen, t, C_LN, k, "torch/nn/modules/normalization.py(217): forward");
	py(gen, t, "torch/nn/functional.py(2910): layer_norm");
	py(gen, t,
	    "<built-in method layer_norm of type object at 0x7f3b1c2e4a40>");
	op(gen, t, "aten::layer_norm");
	T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); L1(gen->tr.H);
	T1(BF, gen->tr.H); T1(BF, gen->tr.H);
	SC("1e-05"); SC("True");
	opseq(gen, t, "aten::native_layer_norm", N_LN, (int)M, gen->tr.H, 0, 0);
	e = gen->ntp - 1;
	T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); L1(gen->tr.H);
	T1(BF, gen->tr.H); T1(BF, gen->tr.H);
	SC("1e-05");
	f_empty(gen, t, gen->tr.B, (int64_t)gen->tr.T * gen->tr.H);
	f_empty(gen, t, M, 1);
	launch(gen, t, K_LNF, SC_, mem_ns(gen, M * gen->tr.H * 4), clampgrid(M),
	    1);
	end(gen, t);
	end(gen, t);
	endn(gen, t, 6);
	return e;
}

static void
f_add(struct gen *gen, struct thr *t, int64_t a, int64_t b)
{
	opseq(gen, t, "aten::add", N_ADD, (int)a, (int)b, 0, 0);
	T2(BF, a, b); T2(BF, a, b); SC("1");
	launch(gen, t, K_ADD, SC_, mem_ns(gen, a * b * 6), egrid(gen, K_ADD,
	    a * b), 1);
	end(gen, t);
}

static void
f_attn(struct gen *gen, struct thr *t, int i)
{
	int64_t M = tokens(gen), bh = (int64_t)gen->tr.B * gen->tr.nh;
	int j, q;
	int64_t fl;

	mod(gen, t, C_ATTN, i, MODEL_PY "(96): forward");
	f_linear(gen, t, 4 * i, M, gen->tr.H, 3 * gen->tr.H, 1);
	opseq(gen, t, "aten::split", N_SPLIT, (int)M, 3 * gen->tr.H, 0, 0);
	T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H); SI(gen->tr.H); SC("-1");
	for (j = 0; j < 3; j++) {
		op(gen, t, "aten::narrow");
		T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H); SC("-1");
		SI(j * gen->tr.H); SI(gen->tr.H);
		op(gen, t, "aten::slice");
		T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H); SC("-1");
		SI(j * gen->tr.H);
		SI((j + 1) * gen->tr.H); SC("1");
		op(gen, t, "aten::as_strided");
		T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H);
		L3(gen->tr.B, gen->tr.T, gen->tr.H);
		L3((int64_t)gen->tr.T * 3 * gen->tr.H, 3 * gen->tr.H, 1);
		SI(j * gen->tr.H);
		leaf(gen, t);
		endn(gen, t, 2);
	}
	end(gen, t);
	for (j = 0; j < 3; j++) {
		f_view(gen, t, N_VIEW, gen->tr.B, gen->tr.T, gen->tr.nh,
		    gen->tr.hd);
		opseq(gen, t, "aten::transpose", N_TRANSPOSE, (int)M, gen->tr.H,
		    0, 0);
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd); SC("1");
		SC("2");
		op(gen, t, "aten::as_strided");
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		L4(gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.hd, gen->tr.H, 1);
		NO();
		leaf(gen, t);
		end(gen, t);
	}
	py(gen, t, "<built-in function scaled_dot_product_attention>");
	op(gen, t, "aten::scaled_dot_product_attention");
	for (j = 0; j < 3; j++)
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	NO(); SC("0."); SC("True"); NO(); SC("False");
	opseq(gen, t,
	    opt.amd ? "aten::_scaled_dot_product_efficient_attention" :
	    "aten::_scaled_dot_product_flash_attention", N_SDPA, (int)bh,
	    gen->tr.T, gen->tr.hd, 0);
	for (j = 0; j < 3; j++)
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	SC("0."); SC("True"); SC("False"); NO();
	for (q = 0; q < 3; q++) {
		op(gen, t, "aten::transpose");
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd); SC("1");
		SC("2");
		op(gen, t, "aten::as_strided");
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		L4(gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.H, gen->tr.hd, 1);
		NO();
		leaf(gen, t);
		end(gen, t);
	}
	op(gen, t, opt.amd ? "aten::_efficient_attention_forward" :
	    "aten::_flash_attention_forward");
	for (j = 0; j < 3; j++)
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	NO(); NO(); SI(gen->tr.T); SI(gen->tr.T); SC("0."); SC("True");
	f_empty(gen, t, M, gen->tr.H);
	f_empty(gen, t, bh, gen->tr.T);
	/* Causal attention: half of 4*T*T*hd flops per head. */
	fl = 2 * bh * gen->tr.T * gen->tr.T * gen->tr.hd;
	launch(gen, t, K_ATTF, SC_,
	    fl / ((int64_t)gen->tr.g->tflops * 600) + 5000,
	    clampgrid((gen->tr.T + 127) / 128), clampgrid(bh));
	end(gen, t);
	end(gen, t);
	end(gen, t);
	end(gen, t);
	opseq(gen, t, "aten::transpose", N_TRANSPOSE, (int)M, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd); SC("1"); SC("2");
	op(gen, t, "aten::as_strided");
	T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	L4(gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.hd, gen->tr.H, 1); NO();
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::reshape");
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L3(gen->tr.B, gen->tr.T, gen->tr.H);
	opseq(gen, t, "aten::clone", N_CLONE, (int)M, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd); NO();
	op(gen, t, "aten::empty_like");
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd); NO(); NO(); NO();
	NO(); SC("0");
	op(gen, t, "aten::empty_strided");
	L4(gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.H, gen->tr.hd, 1);
	SC("15"); SC("0"); NO(); NO();
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::copy_");
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	SC("False");
	launch(gen, t, K_COPY, SC_, mem_ns(gen, M * gen->tr.H * 4), egrid(gen,
	    K_COPY, M * gen->tr.H), 1);
	end(gen, t);
	end(gen, t);
	opseq(gen, t, "aten::_unsafe_view", N_UVIEW, (int)M, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L3(gen->tr.B, gen->tr.T, gen->tr.H);
	leaf(gen, t);
	end(gen, t);
	f_linear(gen, t, 4 * i + 1, M, gen->tr.H, gen->tr.H, 1);
	endn(gen, t, 4);
}

static void
f_mlp(struct gen *gen, struct thr *t, int i)
{
	int64_t M = tokens(gen);

	mod(gen, t, C_MLP, i, MODEL_PY "(64): forward");
	f_linear(gen, t, 4 * i + 2, M, gen->tr.H, gen->tr.F, 1);
	mod(gen, t, C_GELU, i, "torch/nn/modules/activation.py(734): forward");
	py(gen, t, "<built-in function gelu>");
	opseq(gen, t, "aten::gelu", N_GELU, (int)M, gen->tr.F, 0, 0);
	T3(BF, gen->tr.B, gen->tr.T, gen->tr.F);
	launch(gen, t, K_GELU, SC_, mem_ns(gen, M * gen->tr.F * 4), egrid(gen,
	    K_GELU, M * gen->tr.F), 1);
	end(gen, t);
	endn(gen, t, 5);
	f_linear(gen, t, 4 * i + 3, M, gen->tr.F, gen->tr.H, 1);
	endn(gen, t, 4);
}

static void
f_layer(struct gen *gen, struct thr *t, int i)
{
	int e;

	mod(gen, t, C_LAYER, i, MODEL_PY "(140): forward");
	e = f_ln(gen, t, 2 * i);
	/* Backward reaches this node last for the layer: a bucket fills. */
	if (i % gen->tr.bucket == 0)
		gen->tp[e].flush = 1;
	f_attn(gen, t, i);
	f_add(gen, t, tokens(gen), gen->tr.H);
	f_ln(gen, t, 2 * i + 1);
	f_mlp(gen, t, i);
	f_add(gen, t, tokens(gen), gen->tr.H);
	endn(gen, t, 4);
}

static void
f_stem(struct gen *gen, struct thr *t)
{
	int64_t M = tokens(gen), n;
	int ip = gen->tr.img / gen->tr.patch;

	mod(gen, t, C_PATCH, 0, MODEL_PY "(31): forward");
	mod(gen, t, C_CONV, 0, "torch/nn/modules/conv.py(554): forward");
	py(gen, t, "torch/nn/modules/conv.py(549): _conv_forward");
	py(gen, t, "<built-in method conv2d of type object at 0x7f3b1c2e4a40>");
	op(gen, t, "aten::conv2d");
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	T1(BF, gen->tr.H); L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
	SC("1");
	opseq(gen, t, "aten::convolution", N_CONV, gen->tr.B, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	T1(BF, gen->tr.H); L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
	SC("False"); L2(0, 0); SC("1");
	op(gen, t, "aten::_convolution");
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	T1(BF, gen->tr.H); L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
	SC("False"); L2(0, 0); SC("1"); SC("False"); SC("False");
	SC("True"); SC("True");
	op(gen, t,
	    opt.amd ? "aten::miopen_convolution" : "aten::cudnn_convolution");
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	L2(0, 0); L2(gen->tr.patch, gen->tr.patch); L2(1, 1); SC("1");
	SC("False"); SC("True"); SC("True");
	f_empty(gen, t, (int64_t)gen->tr.B * gen->tr.H, (int64_t)ip * ip);
	n = (int64_t)gen->tr.B * 3 * gen->tr.img * gen->tr.img;
	launch(gen, t, K_CONVT, SC_, mem_ns(gen, n * 4), egrid(gen, K_CONVT, n),
	    1);
	n = (int64_t)gen->tr.B * ip * ip;
	launch(gen, t, K_CONVF, SC_, gemm_ns(gen, n, gen->tr.H,
	    3 * gen->tr.patch * gen->tr.patch),
	    clampgrid((n + 127) / 128 * ((gen->tr.H + 127) / 128)), 1);
	end(gen, t);
	op(gen, t, "aten::reshape");
	T1(BF, gen->tr.H); L4(1, gen->tr.H, 1, 1);
	op(gen, t, "aten::view");
	T1(BF, gen->tr.H); L4(1, gen->tr.H, 1, 1);
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::add_");
	T4(BF, gen->tr.B, gen->tr.H, ip, ip); T4(BF, 1, gen->tr.H, 1, 1);
	SC("1");
	launch(gen, t, K_ADD, SC_, mem_ns(gen, n * gen->tr.H * 4), egrid(gen,
	    K_ADD, n * gen->tr.H), 1);
	end(gen, t);
	end(gen, t);
	end(gen, t);
	end(gen, t);
	endn(gen, t, 6);
	op(gen, t, "aten::flatten");
	T4(BF, gen->tr.B, gen->tr.H, ip, ip); SC("2"); SC("-1");
	f_view(gen, t, N_VIEW, gen->tr.B, gen->tr.H, ip, ip);
	end(gen, t);
	opseq(gen, t, "aten::transpose", N_TRANSPOSE,
	    (int)(gen->tr.B * gen->tr.P), gen->tr.H, 0, 0);
	T3(BF, gen->tr.B, gen->tr.H, gen->tr.P); SC("1"); SC("2");
	op(gen, t, "aten::as_strided");
	T3(BF, gen->tr.B, gen->tr.H, gen->tr.P);
	L3(gen->tr.B, gen->tr.P, gen->tr.H);
	L3((int64_t)gen->tr.H * gen->tr.P, 1, gen->tr.P); NO();
	leaf(gen, t);
	end(gen, t);
	endn(gen, t, 4);

	mod(gen, t, C_EMB, 0, "torch/nn/modules/sparse.py(190): forward");
	py(gen, t, "torch/nn/functional.py(2551): embedding");
	py(gen, t,
	    "<built-in method embedding of type object at 0x7f3b1c2e4a40>");
	opseq(gen, t, "aten::embedding", N_EMB, gen->tr.V, gen->tr.H,
	    gen->tr.B * gen->tr.S, 0);
	T2(BF, gen->tr.V, gen->tr.H); T2(TY_I64, gen->tr.B, gen->tr.S);
	SC("-1"); SC("False");
	SC("False");
	op(gen, t, "aten::reshape");
	T2(TY_I64, gen->tr.B, gen->tr.S); L1(-1);
	op(gen, t, "aten::view");
	T2(TY_I64, gen->tr.B, gen->tr.S); L1(-1);
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::index_select");
	T2(BF, gen->tr.V, gen->tr.H); SC("0");
	T1(TY_I64, (int64_t)gen->tr.B * gen->tr.S);
	f_empty(gen, t, (int64_t)gen->tr.B * gen->tr.S, gen->tr.H);
	launch(gen, t, K_IDXSEL, SC_, mem_ns(gen,
	    (int64_t)gen->tr.B * gen->tr.S * gen->tr.H * 4),
	    clampgrid((int64_t)gen->tr.B * gen->tr.S / 8 + 1), 1);
	end(gen, t);
	op(gen, t, "aten::view");
	T2(BF, (int64_t)gen->tr.B * gen->tr.S, gen->tr.H);
	L3(gen->tr.B, gen->tr.S, gen->tr.H);
	leaf(gen, t);
	end(gen, t);
	endn(gen, t, 6);

	opseq(gen, t, "aten::cat", N_CAT, (int)M, gen->tr.H, 0, 0);
	TL(); SC("1");
	launch(gen, t, K_CAT, SC_, mem_ns(gen, M * gen->tr.H * 4), egrid(gen,
	    K_CAT, M * gen->tr.H), 1);
	end(gen, t);
}

static void
f_loss(struct gen *gen, struct thr *t)
{
	int64_t M = tokens(gen);

	py(gen, t, "torch/nn/functional.py(3494): cross_entropy");
	py(gen, t,
	    "<built-in method cross_entropy_loss of PyCapsule object at 0x7f3a5d8c1e70>");
	op(gen, t, "aten::cross_entropy_loss");
	T2(BF, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	SC("0.0");
	op(gen, t, "aten::log_softmax");
	T2(BF, M, gen->tr.V); SC("1"); NO();
	opseq(gen, t, "aten::_log_softmax", N_LOGSM, (int)M, gen->tr.V, 0, 0);
	T2(BF, M, gen->tr.V); SC("1"); SC("True");
	launch(gen, t, K_LSMF, SC_, mem_ns(gen, M * gen->tr.V * 6),
	    clampgrid(M), 1);
	endn(gen, t, 2);
	op(gen, t, "aten::nll_loss_nd");
	T2(TY_F32, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	op(gen, t, "aten::nll_loss");
	T2(TY_F32, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	opseq(gen, t, "aten::nll_loss_forward", N_NLL, (int)M, gen->tr.V, 0, 0);
	T2(TY_F32, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	launch(gen, t, K_NLLF, SC_, mem_ns(gen, M * 12), 1, 1);
	endn(gen, t, 3);
	end(gen, t);
	endn(gen, t, 2);

	/* A z-loss term brings mean, mul and add into the graph. */
	opseq(gen, t, "aten::mean", N_MEAN, (int)M, 1, 0, 0);
	T1(TY_F32, M); NO();
	launch(gen, t, K_MEAN, SC_, mem_ns(gen, M * 4), 1, 1);
	end(gen, t);
	opseq(gen, t, "aten::mul", N_MUL, 1, 1, 0, 0);
	T0(TY_F32); SC("0.0001");
	launch(gen, t, K_MUL, SC_, 2500, 1, 1);
	end(gen, t);
	opseq(gen, t, "aten::add", N_ADD, 1, 1, 0, 0);
	T0(TY_F32); T0(TY_F32); SC("1");
	launch(gen, t, K_ADD, SC_, 2500, 1, 1);
	end(gen, t);

	/* A compiled region: a Triton kernel launched through the driver. */
	beg(gen, t, H_UANN, "## Call CompiledFxGraph fq3kzv7bnw ##");
	launch(gen, t, K_TAB, SC_, mem_ns(gen, M * 8), egrid(gen, K_TAB, M), 1);
	end(gen, t);
}

static void
forward(struct gen *gen, struct thr *t)
{
	int i;

	mod(gen, t, C_VLM, 0, MODEL_PY "(210): forward");
	f_stem(gen, t);
	for (i = 0; i < gen->tr.L; i++)
		f_layer(gen, t, i);
	f_ln(gen, t, 2 * gen->tr.L);
	f_linear(gen, t, 4 * gen->tr.L, tokens(gen), gen->tr.H, gen->tr.V, 0);
	endn(gen, t, 4);
}

/* ------------------------------------------------------------------ */
/* Backward pass on the autograd thread.                              */

/* AccumulateGrad of a parameter [a] or [a, b]. */
static int64_t
accgrad(struct gen *gen, struct thr *t, int a, int b)
{
	int i;

	i = op(gen, t,
	    "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad");
	gen->hv[i].kind = A_ANN;
	gen->hv[i].nin = -1;
	op(gen, t, "torch::autograd::AccumulateGrad");
	if (b) T2(BF, a, b); else T1(BF, a);
	op(gen, t, "aten::detach");
	if (b) T2(BF, a, b); else T1(BF, a);
	op(gen, t, "detach");
	if (b) T2(BF, a, b); else T1(BF, a);
	leaf(gen, t);
	endn(gen, t, 3);
	return (int64_t)a * (b ? b : 1);
}

static int64_t
bnode(struct gen *gen, struct thr *t, const struct tape *e)
{
	int64_t M = e->a, n, p = 0;
	int i;

	i = op(gen, t, gen->evalname[e->node]);
	gen->hv[i].kind = A_EVAL;
	gen->hv[i].seq = e->seq;
	gen->hv[i].nin = -1;
	i = op(gen, t, nodename[opt.amd][e->node]);
	gen->hv[i].kind = A_NODE;
	gen->hv[i].seq = e->seq;
	if (e->node == N_SDPA)
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	else if (e->node == N_T)
		T2(BF, e->b, e->a);
	else if (e->node == N_CONV)
		T4(BF, gen->tr.B, gen->tr.H, gen->tr.img / gen->tr.patch,
		    gen->tr.img / gen->tr.patch);
	else if (e->node == N_ADDMM || e->node == N_MM)
		T2(BF, e->a, e->c);
	else if (e->node == N_EMB)
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H);
	else
		T2(BF, e->a, e->b);
	GROW(gen->fb, gen->nfb, gen->fbcap);
	gen->fb[gen->nfb].fts = e->ts;
	gen->fb[gen->nfb++].bts = gen->hv[i].ts;

	switch (e->node) {
	case N_ADDMM:
	case N_MM:
		f_t(gen, t, e->c, e->b, 0);
		op(gen, t, "aten::mm");
		T2(BF, e->a, e->c); T2(BF, e->c, e->b);
		launch(gen, t, gemmrole(e->a, e->b, e->c), SC_,
		    gemm_ns(gen, e->a, e->b, e->c),
		    clampgrid((M + 127) / 128 * ((e->b + 127) / 128)), 1);
		end(gen, t);
		op(gen, t, "aten::t");
		T2(BF, e->a, e->c);
		leaf(gen, t);
		op(gen, t, "aten::mm");
		TT(BF, e->c, e->a); T2(BF, e->a, e->b);
		launch(gen, t, gemmrole(e->c, e->b, e->a), SC_,
		    gemm_ns(gen, e->c, e->b, e->a),
		    clampgrid((e->c + 127) / 128 * ((e->b + 127) / 128)), 1);
		end(gen, t);
		if (e->node == N_ADDMM) {
			op(gen, t, "aten::sum");
			T2(BF, e->a, e->c); L1(0); SC("True"); NO();
			launch(gen, t, K_SUM, SC_, mem_ns(gen, M * e->c * 2),
			    clampgrid(e->c / 32 + 1), 16);
			end(gen, t);
			op(gen, t, "aten::view");
			T2(BF, 1, e->c); L1(e->c);
			leaf(gen, t);
		}
		break;
	case N_T:
		f_t(gen, t, e->b, e->a, 0);
		break;
	case N_LN:
		op(gen, t, "aten::native_layer_norm_backward");
		T2(BF, e->a, e->b); T2(BF, e->a, e->b); L1(e->b);
		T1(TY_F32, e->a); T1(TY_F32, e->a); T1(BF, e->b); T1(BF, e->b);
		f_empty(gen, t, e->a, e->b);
		launch(gen, t, K_LNBI, SC_, mem_ns(gen, M * e->b * 6),
		    clampgrid(M), 1);
		launch(gen, t, K_LNBG, SC_, mem_ns(gen, M * e->b * 4),
		    clampgrid(e->b / 32 + 1), 1);
		end(gen, t);
		memfree(gen, t);
		break;
	case N_SDPA:
		op(gen, t, opt.amd ?
		    "aten::_scaled_dot_product_efficient_attention_backward" :
		    "aten::_scaled_dot_product_flash_attention_backward");
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		SC("0."); SC("True");
		op(gen, t, opt.amd ? "aten::_efficient_attention_backward" :
		    "aten::_flash_attention_backward");
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		SC("0."); SC("True");
		f_empty(gen, t, (int64_t)e->a * e->b, e->c);
		f_empty(gen, t, (int64_t)e->a * e->b, e->c);
		n = (int64_t)e->a * e->b * e->c;
		launch(gen, t, K_ATTB0, SC_, mem_ns(gen, n * 4),
		    clampgrid((e->b + 127) / 128), clampgrid(e->a));
		if (!opt.amd)
			memop(gen, t, G_MEMSET, "Memset (Device)", SC_, n * 4,
			    0);
		launch(gen, t, K_ATTB1, SC_,
		    5 * n * e->b / ((int64_t)gen->tr.g->tflops * 600) + 8000,
		    clampgrid((e->b + 127) / 128), clampgrid(e->a));
		launch(gen, t, K_ATTB2, SC_, mem_ns(gen, n * 6),
		    clampgrid((e->b + 127) / 128), clampgrid(e->a));
		endn(gen, t, 2);
		memfree(gen, t);
		break;
	case N_GELU:
		op(gen, t, "aten::gelu_backward");
		T2(BF, e->a, e->b); T2(BF, e->a, e->b);
		launch(gen, t, K_GELUB, SC_, mem_ns(gen, M * e->b * 6),
		    egrid(gen, K_GELUB, M * e->b), 1);
		end(gen, t);
		break;
	case N_VIEW:
	case N_UVIEW:
		op(gen, t, "aten::reshape");
		T2(BF, e->a, e->b); L2(e->a, e->b);
		op(gen, t, "aten::view");
		T2(BF, e->a, e->b); L2(e->a, e->b);
		leaf(gen, t);
		end(gen, t);
		break;
	case N_SPLIT:
		op(gen, t, "aten::cat");
		TL(); SC("-1");
		launch(gen, t, K_CAT, SC_, mem_ns(gen, M * e->b * 4),
		    egrid(gen, K_CAT, M * e->b), 1);
		end(gen, t);
		break;
	case N_TRANSPOSE:
		op(gen, t, "aten::transpose");
		T2(BF, e->a, e->b); SC("1"); SC("2");
		op(gen, t, "aten::as_strided");
		T2(BF, e->a, e->b); L2(e->a, e->b); L2(e->b, 1); NO();
		leaf(gen, t);
		end(gen, t);
		break;
	case N_EMB:
		op(gen, t, "aten::embedding_backward");
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H);
		T2(TY_I64, gen->tr.B, gen->tr.S); SI(e->a);
		SC("-1"); SC("False"); SC("False");
		op(gen, t, "aten::embedding_dense_backward");
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H);
		T2(TY_I64, gen->tr.B, gen->tr.S); SI(e->a);
		SC("-1"); SC("False");
		op(gen, t, "aten::new_zeros");
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H); L2(e->a, e->b);
		SC("15"); SC("0");
		NO(); NO();
		f_empty(gen, t, e->a, e->b);
		op(gen, t, "aten::zero_");
		T2(BF, e->a, e->b);
		memop(gen, t, G_MEMSET, "Memset (Device)", SC_,
		    (int64_t)e->a * e->b * 2, 0);
		end(gen, t);
		end(gen, t);
		launch(gen, t, K_EMBB, SC_, mem_ns(gen,
		    (int64_t)e->c * e->b * 8), clampgrid(e->b / 32 + 1), 1);
		endn(gen, t, 2);
		break;
	case N_CONV:
		op(gen, t, "aten::convolution_backward");
		T4(BF, gen->tr.B, gen->tr.H, gen->tr.img / gen->tr.patch,
		    gen->tr.img / gen->tr.patch);
		T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
		T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
		L1(gen->tr.H);
		L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
		SC("False");
		L2(0, 0); SC("1"); NO();
		n = (int64_t)gen->tr.B * gen->tr.P;
		launch(gen, t, K_CONVT, SC_, mem_ns(gen, n * gen->tr.H * 4),
		    egrid(gen, K_CONVT, n * gen->tr.H), 1);
		launch(gen, t, K_CONVW, SC_, gemm_ns(gen, gen->tr.H,
		    3 * gen->tr.patch * gen->tr.patch, n),
		    clampgrid((gen->tr.H + 127) / 128 * 2), 1);
		launch(gen, t, K_SUM, SC_, mem_ns(gen, n * gen->tr.H * 2),
		    clampgrid(gen->tr.H / 32 + 1), 16);
		end(gen, t);
		break;
	case N_CAT:
		for (n = 0; n < 2; n++) {
			op(gen, t, "aten::narrow");
			T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); SC("1");
			SI(n ? gen->tr.P : 0);
			SI(n ? gen->tr.S : gen->tr.P);
			op(gen, t, "aten::slice");
			T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); SC("1");
			SI(n ? gen->tr.P : 0);
			SI(n ? gen->tr.T : gen->tr.P); SC("1");
			leaf(gen, t);
			end(gen, t);
		}
		break;
	case N_LOGSM:
		op(gen, t, "aten::_log_softmax_backward_data");
		T2(TY_F32, e->a, e->b); T2(TY_F32, e->a, e->b); SC("1"); SC("15");
		launch(gen, t, K_LSMB, SC_, mem_ns(gen, M * e->b * 10),
		    clampgrid(M), 1);
		end(gen, t);
		break;
	case N_NLL:
		op(gen, t, "aten::nll_loss_backward");
		T0(TY_F32); T2(TY_F32, e->a, e->b); T1(TY_I64, e->a); NO();
		SC("1"); SC("-100"); T0(TY_F32);
		op(gen, t, "aten::zero_");
		T2(TY_F32, e->a, e->b);
		op(gen, t, "aten::fill_");
		T2(TY_F32, e->a, e->b); SC("0");
		launch(gen, t, K_FILL, SC_, mem_ns(gen, M * e->b * 4),
		    egrid(gen, K_FILL, M * e->b), 1);
		endn(gen, t, 2);
		launch(gen, t, K_NLLB, SC_, mem_ns(gen, M * 12), 1, 1);
		end(gen, t);
		break;
	case N_MEAN:
		op(gen, t, "aten::expand");
		T0(TY_F32); L1(e->a); SC("False");
		op(gen, t, "aten::as_strided");
		T0(TY_F32); L1(e->a); L1(0); NO();
		leaf(gen, t);
		end(gen, t);
		op(gen, t, "aten::div");
		T1(TY_F32, e->a); SI(e->a);
		launch(gen, t, K_DIV, SC_, mem_ns(gen, M * 8), egrid(gen, K_DIV,
		    M), 1);
		end(gen, t);
		break;
	case N_MUL:
		op(gen, t, "aten::mul");
		T0(TY_F32); SC("0.0001");
		launch(gen, t, K_MUL, SC_, 2500, 1, 1);
		end(gen, t);
		break;
	default:	/* N_ADD, N_CLONE: the gradient passes through */
		t->now += urange(gen, 500, 3000);
		break;
	}
	end(gen, t);
	end(gen, t);

	switch (e->node) {
	case N_ADDMM:
		p += accgrad(gen, t, e->c, e->b);
		p += accgrad(gen, t, e->c, 0);
		break;
	case N_MM:
		p += accgrad(gen, t, e->c, e->b);
		break;
	case N_LN:
		p += accgrad(gen, t, e->b, 0);
		p += accgrad(gen, t, e->b, 0);
		break;
	case N_EMB:
		p += accgrad(gen, t, e->a, e->b);
		break;
	case N_CONV:
		p += accgrad(gen, t, gen->tr.H,
		    3 * gen->tr.patch * gen->tr.patch);
		p += accgrad(gen, t, gen->tr.H, 0);
		break;
	}
	return p;
}

static void
backward(struct gen *gen, struct thr *t)
{
	int64_t acc = 0;
	int j;

	for (j = gen->ntp - 1; j >= 0; j--) {
		acc += bnode(gen, t, &gen->tp[j]);
		if (gen->tr.world > 1 && gen->tp[j].flush && acc) {
			allreduce(gen, t, acc);
			acc = 0;
		}
	}
	if (gen->tr.world > 1 && acc)
		allreduce(gen, t, acc);
	/* DDP finalize: the compute stream waits for the last bucket. */
	rtcall(gen, t, L_WAIT);
	gen->sfree[SC_] = imax(gen->sfree[SC_], gen->sfree[SNC]);
}

/* ------------------------------------------------------------------ */
/* The rest of a step.                                                */

static void
f_to(struct gen *gen, struct thr *t, int ty, int nd, int64_t a, int64_t b,
    int64_t c, int64_t d, int pinned)
{
	int64_t bytes = a * (b ? b : 1) * (c ? c : 1) * (d ? d : 1) *
	    (ty == TY_I64 ? 8 : 2);

	op(gen, t, "aten::to");
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d); NO(); SC("15"); NO();
	NO();
	SC(pinned ? "True" : "False"); SC("False"); NO();
	op(gen, t, "aten::_to_copy");
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d); SC("15"); SC("0");
	NO(); NO();
	SC(pinned ? "True" : "False"); NO();
	op(gen, t, "aten::empty_strided");
	L2(a, b); L2(b, 1); SC("15"); SC("0"); NO(); NO();
	t->now += urange(gen, 300, 1500);
	memev(gen, t, bytes);
	end(gen, t);
	op(gen, t, "aten::copy_");
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d);
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d);
	SC(pinned ? "True" : "False");
	memop(gen, t, G_MEMCPY, pinned ? "Memcpy HtoD (Pinned -> Device)" :
	    opt.amd ? "Memcpy HtoD (Host -> Device)" :
	    "Memcpy HtoD (Pageable -> Device)", pinned ? SCP : SC_, bytes, 0);
	endn(gen, t, 3);
}

/* Mirror a host annotation on the compute stream, as Kineto does. */
static void
gann(struct gen *gen, int h, int g0)
{
	int64_t lo = INT64_MAX, hi = 0;
	int i, g;

	for (i = g0; i < gen->ngv; i++)
		if (gen->gv[i].stream == SC_ && gen->gv[i].cat != G_UANN) {
			if (gen->gv[i].ts < lo)
				lo = gen->gv[i].ts;
			if (gen->gv[i].ts + gen->gv[i].dur > hi)
				hi = gen->gv[i].ts + gen->gv[i].dur;
		}
	if (hi == 0)
		return;
	g = gnew(gen);
	gen->gv[g].cat = G_UANN;
	gen->gv[g].name = gen->hv[h].name;
	gen->gv[g].ext = gen->hv[h].id;
	gen->gv[g].ts = lo;
	gen->gv[g].dur = hi - lo;
	gen->gv[g].stream = SC_;
}

static void
optimizer(struct gen *gen, struct thr *t)
{
	int u, g0 = gen->ngv, nch, c;
	int64_t ns;

	nch = (int)(gen->nparams / 24) + 1;
	/* AdamW touches weight, grad and two moments: 14 bytes a weight. */
	ns = mem_ns(gen, gen->pelems * 14) / nch;
	u = beg(gen, t, H_UANN, "Optimizer.step#AdamW.step");
	py(gen, t, "torch/optim/optimizer.py(485): wrapper");
	py(gen, t, "torch/optim/adamw.py(209): step");
	if (chance(gen, 4)) {
		py(gen, t, "torch/cuda/graphs.py(139): replay");
		py(gen, t,
		    "<built-in method replay of torch._C._CUDAGraph object at 0x7f3a8c0e1230>");
		graph(gen, t, nch + 1, ns);
		endn(gen, t, 2);
	} else {
		py(gen, t, "torch/optim/adamw.py(751): _fused_adamw");
		op(gen, t, "aten::_foreach_add_");
		TL(); SC("1");
		launch(gen, t, K_FADD, SC_, 4000,
		    clampgrid(gen->nparams / 8 + 1), 1);
		end(gen, t);
		op(gen, t, "aten::_fused_adamw_");
		TL(); TL(); TL(); TL(); TL(); TL(); SC("0.0003"); SC("0.9");
		SC("0.95"); SC("0.1"); SC("1e-08"); SC("False"); SC("False");
		NO(); NO();
		for (c = 0; c < nch; c++)
			launch(gen, t, K_ADAM, SC_, ns,
			    clampgrid(gen->pelems / nch / 65536 + 1), 1);
		end(gen, t);
		end(gen, t);
	}
	endn(gen, t, 2);
	end(gen, t);
	gann(gen, u, g0);
}

static void
genstep(struct gen *gen)
{
	struct thr *t = &gen->th[0];
	int ps, g0;

	gen->nhv = gen->ngv = gen->ninp = gen->ntp = gen->nfb = gen->nalloc = 0;
	while (gen->ncv > 0) {
		gen->ncv--;
		free(gen->cv[gen->ncv].insplit);
		free(gen->cv[gen->ncv].outsplit);
	}
	gen->bleed = chance(gen, 6);
	/* Data loading and logging between steps (and -c idle:US). */
	t->now += urange(gen, 80000, 600000) + change_gap();
	ps = beg(gen, t, gen->tr.stepop ? H_CPU : H_UANN, NULL);
	gen->hv[ps].kind = A_ANN;
	gen->hv[ps].nin = -1;
	g0 = gen->ngv;
	py(gen, t, "train.py(62): train_step");

	beg(gen, t, H_UANN, "Optimizer.zero_grad#AdamW.zero_grad");
	py(gen, t, "torch/optim/optimizer.py(957): zero_grad");
	t->now += urange(gen, 20000, 60000);
	endn(gen, t, 2);

	beg(gen, t, H_UANN, LOAD_NAME);
	py(gen, t, "torch/utils/data/dataloader.py(733): __next__");
	t->now += urange(gen, 30000, 200000);
	end(gen, t);
	f_to(gen, t, TY_I64, 2, gen->tr.B, gen->tr.S, 0, 0, 1);
	f_to(gen, t, BF, 4, gen->tr.B, 3, gen->tr.img, gen->tr.img, 1);
	f_to(gen, t, TY_I64, 2, gen->tr.B, gen->tr.S, 0, 0, 0);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	gen->sfree[SC_] = imax(gen->sfree[SC_], gen->sfree[SCP]);
	end(gen, t);

	forward(gen, t);
	if (opt.world) {
		alltoallv(gen, t);
		nodegather(gen, t);
	}
	f_loss(gen, t);

	py(gen, t, "torch/_tensor.py(648): backward");
	py(gen, t, "torch/autograd/__init__.py(353): backward");
	py(gen, t, "torch/autograd/graph.py(829): _engine_run_backward");
	gen->th[1].now = t->now + urange(gen, 3000, 9000);
	backward(gen, &gen->th[1]);
	t->now = gen->th[1].now + urange(gen, 2000, 8000);
	endn(gen, t, 3);

	optimizer(gen, t);

	py(gen, t, "<built-in method item of Tensor object at 0x7f3a5d9e2b10>");
	op(gen, t, "aten::item");
	T0(TY_F32);
	op(gen, t, "aten::_local_scalar_dense");
	T0(TY_F32);
	memop(gen, t, G_MEMCPY, opt.amd ? "Memcpy DtoH (Device -> Host)" :
	    "Memcpy DtoH (Device -> Pageable)", SC_, 4, 1);
	syncall(gen, t);
	endn(gen, t, 3);

	end(gen, t);
	end(gen, t);
	if (!gen->tr.stepop)
		gann(gen, ps, g0);
}

/* ------------------------------------------------------------------ */
/* Writing events.                                                    */

/* Kineto lays events and their args over a few lines. */
static int
evml(struct gen *gen)
{
	return gen->tr.style == ST_KINETO;
}

static void
xname(struct gen *gen, const char *name)
{
	if (name != NULL)
		jstr(name);
	else {
		PUTS("\"ProfilerStep#");
		putu((uint64_t)gen->stepno);
		putch('"');
	}
}

static int
istensor(const struct inp *p)
{
	return p->how == IN_PLAIN && p->nd > 0 &&
	    (p->ty == TY_BF16 || p->ty == TY_F32 || p->ty == TY_I64);
}

static void
inputs(struct gen *gen, const struct hev *h)
{
	const struct inp *p, *b = gen->inp + h->in0,
	    *e = gen->inp + h->in0 + h->nin;
	int64_t st[4];
	int k;

	JK("Concrete Inputs");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		if (p->how == IN_LIST) {
			PUTS("\"[");
			for (k = 0; k < p->nd; k++) {
				if (k)
					PUTS(", ");
				puti(p->d[k]);
			}
			PUTS("]\"");
		} else if (p->how == IN_INT) {
			putch('"');
			puti(p->d[0]);
			putch('"');
		} else
			jstr(p->conc);
	}
	jclose(']');
	JK("Input type");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		jstr(tyname[p->ty]);
	}
	jclose(']');
	JK("Input Strides");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		jopen('[', 0);
		if (istensor(p)) {
			st[p->nd - 1] = 1;
			for (k = p->nd - 2; k >= 0; k--)
				st[k] = st[k + 1] * p->d[k + 1];
			if (p->tr && p->nd == 2) {
				st[0] = 1;
				st[1] = p->d[0];
			}
			for (k = 0; k < p->nd; k++) {
				jel();
				puti(st[k]);
			}
		}
		jclose(']');
	}
	jclose(']');
	JK("Input Dims");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		jopen('[', 0);
		if (istensor(p))
			for (k = 0; k < p->nd; k++) {
				jel();
				puti(p->d[k]);
			}
		jclose(']');
	}
	jclose(']');
}

static void
rtargs(struct gen *gen, const struct hev *h)
{
	const struct api *a = &gen->api[h->api];
	const struct gev *g = h->g >= 0 ? &gen->gv[h->g] : NULL;

	if (!opt.amd) {
		if (h->aux >= 0) {
			KN("External id", h->aux);
			jbr();
		}
		KN("cbid", a->cbid);
		KN("correlation", h->id);
		return;
	}
	/* roctracer pads these args oddly; Kineto keeps the blanks. */
	if (h->aux >= 0) {
		KN("External id", h->aux);
		jpad(9);
	}
	if (g != NULL && g->k != NULL && h->api != L_GRAPH)
		KS("kernel", g->k->name);
	KN("cid", a->cbid);
	KN("correlation", h->id);
	if (g != NULL && g->k != NULL && h->api != L_GRAPH) {
		jpad(5);
		JK("grid");
		jdim3(g->grid[0], g->grid[1], g->grid[2]);
		jpad(5);
		JK("block");
		jdim3((uint32_t)g->k->bx, (uint32_t)g->k->by, 1);
		jpad(5);
		KN("shared memory", g->k->smem);
	}
}

static void
hargs(struct gen *gen, const struct hev *h)
{
	jopen('{', evml(gen));
	switch (h->kind) {
	case A_OP:
	case A_EVAL:
	case A_ANN:
		KN("External id", h->id);
		jglue();
		KN("Record function id", 0);
		if (h->seq >= 0)
			KN("Sequence number", h->seq);
		if (h->kind == A_EVAL)
			KN("Fwd thread id", 1);
		if (h->nin >= 0)
			inputs(gen, h);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_NODE:
		KN("External id", h->id);
		jglue();
		KN("Sequence number", h->seq);
		KN("Fwd thread id", 1);
		KN("Record function id", 0);
		inputs(gen, h);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_COMMS:
		KN("External id", h->id);
		jglue();
		KN("Record function id", 0);
		KS("Collective name", gen->cv[h->cix].name);
		KS("Process Group Description", gen->cv[h->cix].desc);
		KS("dtype", "BFloat16");
		KN("Rank", gen->tr.rank);
		inputs(gen, h);
		KN("In msg nelems", gen->cv[h->cix].in);
		KN("Out msg nelems", gen->cv[h->cix].out);
		KN("Group size", gen->cv[h->cix].size);
		KS("In split size", gen->cv[h->cix].insplit);
		KS("Out split size", gen->cv[h->cix].outsplit);
		KS("Process Group Name", gen->cv[h->cix].pg);
		KS("Process Group Ranks", gen->cv[h->cix].ranks);
		KN("Global rank start", gen->cv[h->cix].first);
		KN("Global rank stride", 1);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_PY:
		JK("Python parent id");
		if (h->aux)
			puti(h->aux);
		else
			PUTS("null");
		KN("Python id", h->id);
		if (h->modid)
			KN("Python module id", h->modid - 1);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_RT:
		rtargs(gen, h);
		break;
	}
	jclose('}');
}

static void
hemit(struct gen *gen, const struct hev *h)
{
	static const char *const hcat[] = {
		"cpu_op", "user_annotation", "python_function", "cuda_runtime"
	};
	const char *cat;
	int tid = gen->tr.tid[h->thr];

	jel();
	jopen('{', evml(gen));
	if (h->cat == H_INST) {
		JK("ph"); JS("i"); JK("cat"); JS("cpu_instant_event");
		JK("s"); JS("t"); JK("name"); JS("[memory]");
		jbr(); KN("pid", gen->tr.pid); KN("tid", tid);
		jbr(); JK("ts"); putus(h->ts);
		jbr(); JK("args");
		jopen('{', evml(gen));
		KN("Total Reserved", (h->seq / (2 << 20) + 8) * (2 << 20));
		KN("Total Allocated", h->seq);
		KN("Bytes", h->aux);
		KN("Device Id", gen->tr.rank);
		KN("Device Type", 1);
		KN("Addr", h->id);
		JK("finished"); PUTS("false");
		KN("Ev Idx", gen->evidx++);
		jclose('}');
		jclose('}');
		return;
	}
	cat = h->cat == H_RT && gen->api[h->api].driver ? "cuda_driver" :
	    hcat[h->cat];
	if (!h->alt) {
		JK("ph"); JS("X");
		JK("cat"); jstr(cat);
		JK("name"); xname(gen, h->name);
		KN("pid", gen->tr.pid);
		KN("tid", tid);
		jbr(); JK("ts"); putus(h->ts);
		JK("dur"); putus(h->dur);
		jbr(); JK("args"); hargs(gen, h);
	} else {
		/* Not every writer keeps Kineto's key order. */
		JK("name"); xname(gen, h->name);
		JK("ph"); JS("X");
		KN("pid", gen->tr.pid);
		KN("tid", tid);
		jbr(); JK("args"); hargs(gen, h);
		jbr(); JK("ts"); putus(h->ts);
		JK("dur"); putus(h->dur);
		JK("cat"); jstr(cat);
	}
	jclose('}');
}

static void
ncclargs(struct gen *gen, const struct gev *g)
{
	const struct coll *c = &gen->cv[g->cix];

	KS("Collective name", c->name);
	KN("In msg nelems", c->in);
	KN("Out msg nelems", c->out);
	KN("Group size", c->size);
	KS("dtype", "BFloat16");
	KS("In split size", c->insplit);
	KS("Out split size", c->outsplit);
	KS("Process Group Name", c->pg);
	KS("Process Group Description", c->desc);
	KS("Process Group Ranks", c->ranks);
}

static void
gemit(struct gen *gen, const struct gev *g)
{
	static const char *const gcat[] = {
		"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation"
	};
	const struct kdef *k = g->k;
	int64_t blocks, bps;

	jel();
	jopen('{', evml(gen));
	JK("ph"); JS("X");
	JK("cat"); jstr(gcat[g->cat]);
	JK("name");
	xname(gen, change_name(g->cat == G_KERNEL ? k->name : g->name));
	KN("pid", gen->tr.gpupid);
	KN("tid", gen->tr.stream[g->stream]);
	jbr(); JK("ts"); putus(g->ts);
	JK("dur"); putus(g->dur);
	jbr(); JK("args");
	jopen('{', evml(gen));
	if (g->cat == G_UANN) {
		KN("External id", g->ext);
	} else if (g->cat == G_KERNEL && !opt.amd) {
		if (g->ext >= 0) {
			KN("External id", g->ext);
			jbr();
		}
		KN("queued", 0);
		KN("device", gen->tr.gpupid);
		KN("context", 1);
		jbr(); KN("stream", gen->tr.stream[g->stream]);
		KN("correlation", g->corr);
		jbr(); KN("registers per thread", k->regs);
		jbr(); KN("shared memory", k->smem);
		blocks = (int64_t)g->grid[0] * g->grid[1] * g->grid[2];
		bps = blocks * 1000000 / gen->tr.g->sms;
		jbr(); JK("blocks per SM"); putfix(bps);
		jbr(); JK("warps per SM");
		putfix(bps * k->bx * k->by / gen->tr.g->warp);
		jbr(); JK("grid"); jdim3(g->grid[0], g->grid[1], g->grid[2]);
		jbr(); JK("block"); jdim3((uint32_t)k->bx, (uint32_t)k->by, 1);
		jbr(); KN("est. achieved occupancy %", k->occ);
		if (g->coll)
			ncclargs(gen, g);
	} else if (g->cat == G_KERNEL) {
		if (g->ext >= 0) {
			KN("External id", g->ext);
			jpad(5);
		}
		KN("device", gen->tr.gpupid);
		KN("stream", gen->tr.stream[g->stream]);
		jpad(5);
		KN("correlation", g->corr);
		KS("kind", "Dispatch Kernel");
		/* AMD reports the grid in work-items, not blocks. */
		jpad(5);
		JKP("grid", 4);
		jdim3(clampgrid((int64_t)g->grid[0] * k->bx),
		    clampgrid((int64_t)g->grid[1] * k->by), 1);
		JKP("block", 4);
		jdim3((uint32_t)k->bx, (uint32_t)k->by, 1);
		if (g->coll)
			ncclargs(gen, g);
	} else {
		KN("External id", g->ext);
		jbr();
		KN("device", gen->tr.gpupid);
		if (!opt.amd)
			KN("context", 1);
		jbr(); KN("stream", gen->tr.stream[g->stream]);
		KN("correlation", g->corr);
		if (opt.amd)
			KS("kind", g->cat == G_MEMSET ? "Device" :
			    g->dir ? "DtoH" : "HtoD");
		if (!opt.amd || g->cat == G_MEMCPY) {
			jbr(); KN("bytes", g->bytes);
			JK("memory bandwidth (GB/s)");
			putfix(g->dur ? g->bytes * 1000000 / g->dur : 0);
		}
	}
	jclose('}');
	jclose('}');
}

static void
flow(struct gen *gen, int start, int64_t id, int pid, int tid, int64_t ts,
    const char *cat)
{
	jel();
	jopen('{', evml(gen));
	JK("ph");
	if (start)
		JS("s");
	else
		JS("f");
	KN("id", id);
	KN("pid", pid);
	KN("tid", tid);
	JK("ts"); putus(ts);
	jbr(); JK("cat"); jstr(cat);
	JK("name"); jstr(cat);
	if (!start) {
		JK("bp");
		JS("e");
	}
	jclose('}');
}

/*
 * Kineto writes CPU ops, then Python frames, then runtime calls, then
 * GPU activity and flows: the file is only roughly in time order.
 */
static void
emitstep(struct gen *gen)
{
	const struct gev *g;
	int i;

	for (i = 0; i < gen->nhv; i++)
		if (gen->hv[i].cat == H_CPU || gen->hv[i].cat == H_UANN ||
		    gen->hv[i].cat == H_INST)
			hemit(gen, &gen->hv[i]);
	for (i = 0; i < gen->nhv; i++)
		if (gen->hv[i].cat == H_PY)
			hemit(gen, &gen->hv[i]);
	for (i = 0; i < gen->nhv; i++)
		if (gen->hv[i].cat == H_RT)
			hemit(gen, &gen->hv[i]);
	for (i = 0; i < gen->ngv; i++)
		gemit(gen, &gen->gv[i]);
	for (i = 0; i < gen->ngv; i++) {
		g = &gen->gv[i];
		if (g->cat == G_UANN)
			continue;
		if (g->first)
			flow(gen, 1, g->corr, gen->tr.pid, gen->tr.tid[g->lthr],
			    g->lts, "ac2g");
		flow(gen, 0, g->corr, gen->tr.gpupid, gen->tr.stream[g->stream],
		    g->ts, "ac2g");
	}
	for (i = 0; i < gen->nfb; i++, gen->next_fb++) {
		flow(gen, 1, gen->next_fb, gen->tr.pid, gen->tr.tid[0],
		    gen->fb[i].fts, "fwdbwd");
		flow(gen, 0, gen->next_fb, gen->tr.pid, gen->tr.tid[1],
		    gen->fb[i].bts, "fwdbwd");
	}
}

static void
meta(struct gen *gen, const char *name, int pid, int tid, const char *key,
    const char *sval, int64_t nval)
{
	jel();
	jopen('{', evml(gen));
	JK("name"); jstr(name);
	JK("ph"); JS("M");
	JK("ts"); putus(gen->tr.t0);
	KN("pid", pid);
	KN("tid", tid);
	jbr(); JK("args");
	jopen('{', evml(gen));
	jkey(key, strlen(key), 0);
	if (sval != NULL)
		jstr(sval);
	else
		puti(nval);
	jclose('}');
	jclose('}');
}

static void
metas(struct gen *gen)
{
	char buf[64];
	int i;

	meta(gen, "process_name", gen->tr.pid, 0, "name", "python3", 0);
	meta(gen, "process_labels", gen->tr.pid, 0, "labels", "CPU", 0);
	meta(gen, "process_sort_index", gen->tr.pid, 0, "sort_index", NULL,
	    gen->tr.pid);
	meta(gen, "process_name", gen->tr.gpupid, 0, "name", "python3", 0);
	snprintf(buf, sizeof(buf), "GPU %d", gen->tr.gpupid);
	meta(gen, "process_labels", gen->tr.gpupid, 0, "labels", buf, 0);
	meta(gen, "process_sort_index", gen->tr.gpupid, 0, "sort_index", NULL,
	    (opt.amd ? 5000000 : 16777216) + gen->tr.gpupid);
	snprintf(buf, sizeof(buf), "thread %d (python3)", gen->tr.tid[0]);
	meta(gen, "thread_name", gen->tr.pid, gen->tr.tid[0], "name", buf, 0);
	meta(gen, "thread_sort_index", gen->tr.pid, gen->tr.tid[0],
	    "sort_index", NULL, gen->tr.tid[0]);
	snprintf(buf, sizeof(buf), "thread %d (pt_autograd_0)", gen->tr.tid[1]);
	meta(gen, "thread_name", gen->tr.pid, gen->tr.tid[1], "name", buf, 0);
	meta(gen, "thread_sort_index", gen->tr.pid, gen->tr.tid[1],
	    "sort_index", NULL, gen->tr.tid[1]);
	for (i = 0; i < 3; i++) {
		if (i == SNC && gen->tr.world == 1)
			continue;
		snprintf(buf, sizeof(buf), "stream %d ", gen->tr.stream[i]);
		meta(gen, "thread_name", gen->tr.gpupid, gen->tr.stream[i],
		    "name", buf, 0);
		meta(gen, "thread_sort_index", gen->tr.gpupid,
		    gen->tr.stream[i], "sort_index", NULL, gen->tr.stream[i]);
	}
}

/* Top-level members other than traceEvents and traceName. */
static void
hdrkeys(struct gen *gen)
{
	const struct gpu *g = gen->tr.g;
	int i, ndev = opt.world ? rank_gpus(gen->tr.world) :
	    gen->tr.world > 1 ? 8 : 1;

	KN("schemaVersion", 1);
	JK("distributedInfo");
	jopen('{', 0);
	KS("backend", "nccl");
	KN("rank", gen->tr.rank);
	KN("world_size", gen->tr.world);
	KN("pg_count", 1);
	JK("pg_config");
	jopen('[', 0);
	jel();
	jopen('{', 0);
	KS("pg_name", "0");
	KS("pg_desc", "default_pg");
	KS("backend_config", "cuda:nccl");
	KN("pg_size", gen->tr.world);
	JK("ranks");
	jopen('[', 0);
	for (i = 0; i < gen->tr.world; i++) {
		jel();
		puti(i);
	}
	jclose(']');
	jclose('}');
	jclose(']');
	KS("nccl_version", opt.amd ? "2.20.5" : "2.21.5");
	jclose('}');
	JK("deviceProperties");
	jopen('[', gen->tr.style == ST_KINETO ? 2 : 0);
	for (i = 0; i < ndev; i++) {
		jel();
		jopen('{', evml(gen));
		KN("id", i);
		KS("name", g->name);
		KN("totalGlobalMem", g->mem);
		jbr(); KN("computeMajor", g->major);
		KN("computeMinor", g->minor);
		jbr(); KN("maxThreadsPerBlock", 1024);
		KN("maxThreadsPerMultiprocessor", 2048);
		jbr(); KN("regsPerBlock", g->regs);
		if (!opt.amd)
			KN("regsPerMultiprocessor", 65536);
		KN("warpSize", g->warp);
		jbr(); KN("sharedMemPerBlock", g->smemblk);
		if (!opt.amd) {
			KN("sharedMemPerMultiprocessor", g->smemsm);
			jbr(); KN("numSms", g->sms);
			KN("sharedMemPerBlockOptin", g->optin);
		} else {
			KN("numSms", g->sms);
			jbr(); KN("maxSharedMemoryPerMultiProcessor", g->smemsm);
		}
		jclose('}');
	}
	jclose(']');
	if (opt.amd) {
		JK("roctracer_version"); PUTS("4.1");
		KN("hip_runtime_version", 60443483);
		KN("hip_driver_version", 60443483);
	} else {
		KN("cupti_version", 24);
		KN("cuda_runtime_version", 12040);
		KN("cuda_driver_version", 12090);
	}
	KN("with_flops", 1);
	KN("record_shapes", 1);
	KN("with_stack", 1);
	KN("with_modules", 1);
	KN("profile_memory", 1);
	KS("trace_id", gen->tr.traceid);
	if (gen->tr.relts || gen->tr.style == ST_KINETO)
		KS("displayTimeUnit", "ms");
	if (gen->tr.relts)
		KN("baseTimeNanoseconds", gen->tr.base);
}

static int
topml(struct gen *gen)
{
	return gen->tr.style == ST_COMPACT && gen->tr.oneline ? 0 : 2;
}

static void
begintrace(struct gen *gen)
{
	if (gen->tr.style == ST_KINETO)
		putch('\n');
	jopen('{', topml(gen));
	if (!gen->tr.late)
		hdrkeys(gen);
	JK("traceEvents");
	jopen('[', topml(gen));
	if (gen->tr.metafirst)
		metas(gen);
}

static void
endtrace(struct gen *gen)
{
	struct hev h;
	int64_t tend, wend;
	int i;

	tend = gen->th[0].now + urange(gen, 20000, 90000);
	wend = tend;
	for (i = 0; i < 3; i++)
		wend = imax(wend, gen->sfree[i] + 1000);
	wend += urange(gen, 1000, 9000);

	/* The script's outermost frames span every step. */
	memset(&h, 0, sizeof(h));
	h.cat = H_PY;
	h.kind = A_PY;
	h.nin = -1;
	h.g = -1;
	h.name = "train.py(97): <module>";
	h.id = 1;
	h.ts = gen->tr.t0 + 15000;
	h.dur = tend - h.ts;
	hemit(gen, &h);
	h.name = "train.py(41): main";
	h.id = 2;
	h.aux = 1;
	h.ts += 2000;
	h.dur -= 4000;
	hemit(gen, &h);

	if (!gen->tr.metafirst)
		metas(gen);

	jel();
	jopen('{', evml(gen));
	JK("ph"); JS("X");
	JK("cat"); JS("Trace");
	JK("ts"); putus(gen->tr.t0 - 80000);
	JK("dur"); putus(wend - gen->tr.t0 + 80000);
	jbr(); JK("pid"); JS("Spans");
	JK("tid"); JS("PyTorch Profiler");
	jbr(); JK("name"); JS("PyTorch Profiler (0)");
	jbr(); JK("args");
	jopen('{', evml(gen));
	KN("Op count", 0);
	jclose('}');
	jclose('}');

	jel();
	jopen('{', evml(gen));
	JK("name"); JS("process_sort_index");
	JK("ph"); JS("M");
	JK("ts"); putus(gen->tr.t0 - 80000);
	jbr(); JK("pid"); JS("Spans");
	KN("tid", 0);
	jbr(); JK("args");
	jopen('{', evml(gen));
	KN("sort_index", 536870912);
	jclose('}');
	jclose('}');

	jel();
	jopen('{', evml(gen));
	JK("name"); JS("Iteration Start: PyTorch Profiler");
	JK("ph"); JS("i");
	JK("s"); JS("g");
	jbr(); JK("pid"); JS("Traces");
	JK("tid"); JS("Trace PyTorch Profiler");
	JK("ts"); putus(gen->tr.t0 - 80000);
	jclose('}');

	jel();
	jopen('{', evml(gen));
	JK("name"); JS("Record Window End");
	JK("ph"); JS("i");
	JK("s"); JS("g");
	jbr(); JK("pid"); JS("");
	JK("tid"); JS("");
	JK("ts"); putus(wend);
	jclose('}');

	jclose(']');
	if (gen->tr.late)
		hdrkeys(gen);
	KS("traceName", gen->tr.tname);
	jclose('}');
	putch('\n');
}

/* ------------------------------------------------------------------ */
/* The step's GPU work for the other writers (gentrace.h).            */

int
gt_nkernels(void)
{
	return NKROLE;
}

const char *
gt_kernel(const struct gen *gen, int role, int *bx, int *by, int *smem)
{
	*bx = gen->kt[role]->bx;
	*by = gen->kt[role]->by;
	*smem = gen->kt[role]->smem;
	return gen->kt[role]->name;
}

int
gt_nevents(const struct gen *gen)
{
	return gen->ngv;
}

void
gt_event(const struct gen *gen, int i, struct gtev *e)
{
	const struct gev *g = &gen->gv[i];
	int r;

	memset(e, 0, sizeof(*e));
	e->ts = g->ts;
	e->dur = g->dur;
	e->corr = g->corr;
	e->bytes = g->bytes;
	e->dir = g->dir;
	e->stream = gen->tr.stream[g->stream];
	e->thread = gen->tr.tid[g->lthr];
	e->role = -1;
	e->cat = g->cat == G_KERNEL ? GT_KERNEL : g->cat == G_MEMCPY ?
	    GT_MEMCPY : g->cat == G_MEMSET ? GT_MEMSET : GT_OTHER;
	if (g->cat != G_KERNEL)
		return;
	for (r = 0; r < NKROLE && gen->kt[r] != g->k; r++)
		;
	e->role = r < NKROLE ? r : -1;
	/* AMD reports the grid in work-items, not blocks */
	e->grid[0] = clampgrid((int64_t)g->grid[0] * g->k->bx);
	e->grid[1] = clampgrid((int64_t)g->grid[1] * g->k->by);
	e->grid[2] = 1;
}

void
gt_info(const struct gen *gen, struct gtinfo *i)
{
	memset(i, 0, sizeof(*i));
	i->seed = opt.seed;
	i->t0 = gen->tr.t0;
	i->pid = gen->tr.pid;
	i->gpu = gen->tr.g->name;
	i->cus = gen->tr.g->sms;
	i->rank = gen->tr.rank;
}

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

int
main(int argc, char *argv[])
{
	/* static: what it holds, never freed, stays reachable to the end */
	static struct gen model = { .next_ext = 1, .next_py = 3,
	    .next_corr = 1, .next_fb = 1 };
	struct gen *gen = &model;
	uint64_t last, sz;
	int64_t n;
	const char *worst = NULL;	/* -w KIND:N: a worst-case trace (worst.c) */
	const char *oname;		/* -o, or stdout, for messages */
	FILE *ofp;
	char *e;
	int c, i;

	tl_setprogname(argv[0]);
	/* Long options are not getopt's: look for them first. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--version") == 0) {
			puts("tl-gentrace " TL_VERSION);
			return 0;
		}
		if (argv[i][0] == '-' && argv[i][1] != '\0' &&
		    argv[i][2] == '\0' && strchr("csSngorwRF", argv[i][1]) != NULL)
			i++;
	}

	opt.seed = 1;
	while ((c = getopt(argc, argv, "hzc:s:S:n:g:o:r:w:R:F:")) != -1)
		switch (c) {
		case 'F':
			if (strcmp(optarg, "kineto") == 0)
				opt.rocprof = 0;
			else if (strcmp(optarg, "rocprof") == 0)
				opt.rocprof = 1;
			else {
				fprintf(stderr, "tl-gentrace: bad format: %s\n",
				    optarg);
				usage(stderr);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'z':
			opt.gz = 1;
			break;
		case 'c':
			if (change_add(optarg) != 0) {
				fprintf(stderr, "tl-gentrace: bad change: %s\n",
				    optarg);
				usage(stderr);
				return 2;
			}
			break;
		case 's':
			opt.gpu = 1;
			errno = 0;
			opt.seed = strtoull(optarg, &e, 10);
			if (e == optarg || *e != '\0' || errno == ERANGE ||
			    *optarg == '-') {
				fprintf(stderr, "tl-gentrace: bad seed: %s\n",
				    optarg);
				usage(stderr);
				return 2;
			}
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
			else {
				fprintf(stderr, "tl-gentrace: bad gpu: %s\n",
				    optarg);
				usage(stderr);
				return 2;
			}
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
			if (rank_parse(optarg, &opt.rank, &opt.world) < 0) {
				fprintf(stderr, "tl-gentrace: bad rank/world: "
				    "%s\n", optarg);
				usage(stderr);
				return 2;
			}
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
		if (worst_write(ofp, worst) < 0) {
			fprintf(stderr, "tl-gentrace: bad -w: %s\n", worst);
			usage(stderr);
			return 2;
		}
		return tl_fshut(ofp, oname);
	}
	out_start(ofp, oname, opt.gz);

	if (opt.real != NULL) {
		replicate(opt.real, opt.steps, opt.size);
		goto done;
	}
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
done:
	out_finish();
	return 0;
}
