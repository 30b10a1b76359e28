/* SPDX-License-Identifier: MIT */
/*
 * The CUDA driver API as the GPU backend uses it, loaded at run time with
 * dlopen("libcuda.so.1"): no toolkit at build time and no link to the
 * driver, so one mess runs on machines with and without a GPU.  Only the
 * entry points used, their prototypes written from NVIDIA's driver API
 * reference (the _v2 names are the symbols the library exports for the
 * 64-bit ABI), and the enum values passed.  NVML (libnvidia-ml.so.1) is
 * optional: the clocks where the driver no longer states them.
 */
#ifndef MESS_GPU_CUDA_H
#define MESS_GPU_CUDA_H

#include <stddef.h>

typedef int CUresult;			/* 0: CUDA_SUCCESS */
#define CUDA_ERROR_NOT_READY 600
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;


/* CUdevice_attribute */
#define CU_DEVICE_ATTRIBUTE_CLOCK_RATE 13		/* kHz */
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY 19
#define CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE 36	/* kHz */
#define CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH 37	/* bits */
#define CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE 38		/* bytes */
#define CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR 39
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76

#define CU_CTX_MAP_HOST 0x08
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_STREAM_NON_BLOCKING 0x1

/* CUjit_option */
#define CU_JIT_INFO_LOG_BUFFER 3
#define CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES 4
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

/* nvmlClockType_t */
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2

struct mess_cuda {
	void *lib, *nvml;
	CUresult (*Init)(unsigned flags);
	CUresult (*DriverGetVersion)(int *v);
	CUresult (*DeviceGetCount)(int *n);
	CUresult (*DeviceGet)(CUdevice *d, int ordinal);
	CUresult (*DeviceGetName)(char *name, int len, CUdevice d);
	CUresult (*DeviceGetAttribute)(int *v, int attr, CUdevice d);
	CUresult (*DeviceGetPCIBusId)(char *id, int len, CUdevice d);
	CUresult (*DeviceTotalMem)(size_t *bytes, CUdevice d);
	CUresult (*CtxCreate)(CUcontext *c, unsigned flags, CUdevice d);
	CUresult (*CtxDestroy)(CUcontext c);
	CUresult (*ModuleLoadDataEx)(CUmodule *m, const void *image, unsigned n,
				     int *options, void **values);
	CUresult (*ModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
	CUresult (*ModuleUnload)(CUmodule m);
	CUresult (*MemAlloc)(CUdeviceptr *p, size_t bytes);
	CUresult (*MemFree)(CUdeviceptr p);
	CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t n);
	CUresult (*MemHostAlloc)(void **p, size_t bytes, unsigned flags);
	CUresult (*MemHostGetDevicePointer)(CUdeviceptr *d, void *p, unsigned flags);
	CUresult (*MemFreeHost)(void *p);
	CUresult (*StreamCreate)(CUstream *s, unsigned flags);
	CUresult (*StreamQuery)(CUstream s);
	CUresult (*StreamSynchronize)(CUstream s);
	CUresult (*StreamDestroy)(CUstream s);
	CUresult (*LaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
				 unsigned bx, unsigned by, unsigned bz,
				 unsigned shared, CUstream s, void **params,
				 void **extra);
	CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *n, CUfunction f,
							      int threads, size_t shared);
	CUresult (*GetErrorString)(CUresult e, const char **s);	/* may be NULL */
	/* NVML, NULL where absent */
	int (*nvmlInit)(void);
	int (*nvmlDeviceGetHandleByPciBusId)(const char *id, void **dev);
	int (*nvmlDeviceGetMaxClockInfo)(void *dev, int type, unsigned *mhz);
	int (*nvmlSystemGetDriverVersion)(char *v, unsigned len);
	int (*nvmlShutdown)(void);
};

/* The driver loaded and initialised: 0, or -EOPNOTSUPP with why (one
 * line's worth) when this machine has none, -EIO when it failed. */
int mess_cuda_load(struct mess_cuda *cu, char *why, size_t len);
void mess_cuda_unload(struct mess_cuda *cu);
/* "cuX failed: the driver's name for e (e)" into why; -EIO. */
int mess_cuda_fail(const struct mess_cuda *cu, const char *call, CUresult e,
		   char *why, size_t len);

#endif
