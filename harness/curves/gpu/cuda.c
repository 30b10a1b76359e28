// SPDX-License-Identifier: MIT
/* The CUDA driver (and NVML) through dlopen: cuda.h says why. */
#include "curves/gpu/cuda.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

struct sym {
	const char *name;
	size_t off;
	int optional;
};

#define SYM(field, name) { name, offsetof(struct mess_cuda, field), 0 }
#define OPT(field, name) { name, offsetof(struct mess_cuda, field), 1 }

static const struct sym cuda_syms[] = {
	SYM(Init, "cuInit"),
	SYM(DriverGetVersion, "cuDriverGetVersion"),
	SYM(DeviceGetCount, "cuDeviceGetCount"),
	SYM(DeviceGet, "cuDeviceGet"),
	SYM(DeviceGetName, "cuDeviceGetName"),
	SYM(DeviceGetAttribute, "cuDeviceGetAttribute"),
	SYM(DeviceGetPCIBusId, "cuDeviceGetPCIBusId"),
	SYM(DeviceTotalMem, "cuDeviceTotalMem_v2"),
	SYM(CtxCreate, "cuCtxCreate_v2"),
	SYM(CtxDestroy, "cuCtxDestroy_v2"),
	SYM(ModuleLoadDataEx, "cuModuleLoadDataEx"),
	SYM(ModuleGetFunction, "cuModuleGetFunction"),
	SYM(ModuleUnload, "cuModuleUnload"),
	SYM(MemAlloc, "cuMemAlloc_v2"),
	SYM(MemFree, "cuMemFree_v2"),
	SYM(MemcpyHtoD, "cuMemcpyHtoD_v2"),
	SYM(MemHostAlloc, "cuMemHostAlloc"),
	SYM(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
	SYM(MemFreeHost, "cuMemFreeHost"),
	SYM(StreamCreate, "cuStreamCreate"),
	SYM(StreamQuery, "cuStreamQuery"),
	SYM(StreamSynchronize, "cuStreamSynchronize"),
	SYM(StreamDestroy, "cuStreamDestroy_v2"),
	SYM(LaunchKernel, "cuLaunchKernel"),
	SYM(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
	OPT(GetErrorString, "cuGetErrorString"),
};

static const struct sym nvml_syms[] = {
	SYM(nvmlInit, "nvmlInit_v2"),
	SYM(nvmlDeviceGetHandleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2"),
	SYM(nvmlDeviceGetMaxClockInfo, "nvmlDeviceGetMaxClockInfo"),
	SYM(nvmlSystemGetDriverVersion, "nvmlSystemGetDriverVersion"),
	SYM(nvmlShutdown, "nvmlShutdown"),
};

/* Each symbol into its slot: the first missing one's name, or NULL. */
static const char *bind(void *lib, struct mess_cuda *cu, const struct sym *s,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		void *f = dlsym(lib, s[i].name);

		if (!f && !s[i].optional)
			return s[i].name;
		memcpy((char *)cu + s[i].off, &f, sizeof(f));
	}
	return NULL;
}

int mess_cuda_fail(const struct mess_cuda *cu, const char *call, CUresult e,
		   char *why, size_t len)
{
	const char *s = NULL;

	if (cu->GetErrorString && cu->GetErrorString(e, &s))
		s = NULL;
	snprintf(why, len, "%s failed: %s (CUresult %d)", call,
		 s ? s : "no description", e);
	return -EIO;
}

/* NVML where present: its absence costs only the fallback clocks. */
static void load_nvml(struct mess_cuda *cu)
{
	cu->nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (cu->nvml && (bind(cu->nvml, cu, nvml_syms,
			      sizeof(nvml_syms) / sizeof(nvml_syms[0])) ||
			 cu->nvmlInit())) {
		dlclose(cu->nvml);
		cu->nvml = NULL;
	}
	if (!cu->nvml)
		cu->nvmlInit = NULL;
}

int mess_cuda_load(struct mess_cuda *cu, char *why, size_t len)
{
	const char *missing;
	CUresult e;

	memset(cu, 0, sizeof(*cu));
	cu->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!cu->lib) {
		const char *d = dlerror();

		snprintf(why, len, "libcuda.so.1 not found (%s): no NVIDIA driver here",
			 d ? d : "dlopen failed");
		return -EOPNOTSUPP;
	}
	missing = bind(cu->lib, cu, cuda_syms,
		       sizeof(cuda_syms) / sizeof(cuda_syms[0]));
	if (missing) {
		snprintf(why, len, "libcuda.so.1 has no %s: a driver too old for this build",
			 missing);
		mess_cuda_unload(cu);
		return -EOPNOTSUPP;
	}
	e = cu->Init(0);
	if (e) {
		/* No device, or none the driver can use (a container without
		 * /dev/nvidia*): not supported here, not a failure. */
		mess_cuda_fail(cu, "cuInit", e, why, len);
		mess_cuda_unload(cu);
		return -EOPNOTSUPP;
	}
	load_nvml(cu);
	return 0;
}

void mess_cuda_unload(struct mess_cuda *cu)
{
	if (cu->nvml) {
		cu->nvmlShutdown();
		dlclose(cu->nvml);
	}
	if (cu->lib)
		dlclose(cu->lib);
	memset(cu, 0, sizeof(*cu));
}
