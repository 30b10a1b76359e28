/* SPDX-License-Identifier: MIT */
/*
 * A raw Mess benchmark tree, as the benchmark leaves it on disk:
 *   bw/bw_<R>_<pause>.txt   perf stat of the memory controllers' counters
 *                           over the run at generator read ratio R and nop
 *                           pause, one block per repetition: Intel's CAS
 *                           counts (unc_m_cas_count.rd / .wr, per socket;
 *                           Granite Rapids' unc_m_cas_count_schN.rd / .wr),
 *                           NVIDIA Grace's SCF bytes (cmem_rd_data,
 *                           cmem_wr_total_bytes of nvidia_scf_pmu or
 *                           nvidia_scf_pmu_N; remote_socket_rd_data /
 *                           _wr_total_bytes), AMD's data fabric
 *                           (dram_channel_data_controller_N) or UMC CAS
 *                           counts, A64FX's a64fx_read/write_effective
 *                           (256 B each), Intel PCM's CXL rates
 *                           (pcm_cxl_read/write_mbps, MB/s), or a remote
 *                           tree's UPI data flits
 *                           (unc_upi_rxl/txl_flits.all_data), one family
 *                           per tree (messraw_perf.c: which Mess records
 *                           and which it leaves out); the first socket's
 *                           lines only, as Mess counts S0's;
 *   lat/lat_<R>_<pause>.txt perf stat of the pointer chase (cycles,
 *                           instructions, accesses, raw TLB events r1012,
 *                           r2012), one block per repetition;
 *   plotter.txt             CPU_FREQ (GHz), TLB_NS, CACHE_LINE_SIZE,
 *                           UPI_SCALING_FACTOR, ...
 *
 * Bandwidth: the counts in bytes (CAS counts x CACHE_LINE_SIZE, 64 B;
 * Grace's read beats x 32 B and write bytes; UPI data flits / 9 x 64 B;
 * PCM's MB/s x 1e6 x the elapsed time), over
 * the block's elapsed time; the read share rd / (rd + wr) (AMD's data
 * fabric, reads and writes together: R, as Mess takes it).
 * Latency, as Mess processes it (its utils/libs/processor.py, checked
 * against the tree's own processed/memory_curves.csv): the chase's
 * elapsed time less r2012 cycles at the chase's own clock (cycles /
 * elapsed) and less TLB_NS per r1012 event, over the accesses.  Each point
 * is the mean of its repetitions, with their sample standard deviation.
 * A counter that is missing or <not counted> leaves the repetition out,
 * never read as 0.
 */
#ifndef MESS_MESSRAW_H
#define MESS_MESSRAW_H

#include <stddef.h>

#include "mess/curve.h"

struct mess_raw {
	double cpu_ghz;		/* plotter.txt CPU_FREQ; NAN absent */
	double tlb_ns;		/* plotter.txt TLB_NS; 0 absent: no STLB
				 * correction (Mess would assume 10 ns) */
	double line_bytes;	/* CACHE_LINE_SIZE, 64 when absent */
	double upi_flits_per_line;	/* UPI_SCALING_FACTOR, 9 when absent */
	/* A remote tree's links (UPI_FREQ GT/s, N_DATA_LANES, FLIT_BIT,
	 * DATA_FLIT_BIT, N_UPI_CHANNELS); NAN absent. */
	struct {
		double freq_gts, data_lanes, flit_bits, data_flit_bits, links;
	} upi;
	double nvlink_gbs;	/* NVLINK_BW_GB_S (a remote peak); NAN absent */
	char binding[32], mem_freq[32];
	char family[32];	/* the bandwidth counters' family
				 * (mess_dram_families[] name) */
	int channels, bus_width;	/* -1 unknown */
	/* The chase's clock over every repetition (cycles / elapsed). */
	double ghz_median, ghz_min, ghz_max;
	size_t points, bw_reps, lat_reps, reps_left_out;
	size_t socket_lines_left_out;	/* counter lines of a second socket */
	/* Mess's grouping (messraw_group.h): its (share, pause) points, how
	 * many its thinning left out, and the shares its check left out. */
	size_t groups, thinned, keys_left_out;
	/* The keys plotter.txt gave (MESS_RAW_GIVEN_*); the repetitions
	 * whose figures a missing one changes: r1012 counted (TLB_NS),
	 * cache lines or UPI flits counted (CACHE_LINE_SIZE,
	 * UPI_SCALING_FACTOR); a key differing from TLB_NS in case only. */
	unsigned given;
	size_t stlb_reps, line_reps, flit_reps;
	char tlb_key_case[32];
};
#define MESS_RAW_GIVEN_TLB_NS 1u
#define MESS_RAW_GIVEN_LINE 2u
#define MESS_RAW_GIVEN_UPI_FLITS 4u

/*
 * How the repetitions become points:
 *   MESS_RAW_MESS       Mess's own processing (include/mess/
 *                       messraw_group.h): a curve per measured read share
 *                       rounded to 1 % (store_pct 100 - that share), a
 *                       point per pause, each repetition where its own
 *                       share rounds; thinned and checked as Mess-Results'
 *                       processed files are;
 *   MESS_RAW_MESS_GROUPS the same grouping, every point kept;
 *   MESS_RAW_PER_RATIO  a curve per generator read ratio R (store_pct
 *                       100 - R, its read_pct the median of its points'
 *                       measured share), a point per file: its
 *                       repetitions kept together.
 */
enum mess_raw_processing { MESS_RAW_MESS, MESS_RAW_PER_RATIO, MESS_RAW_MESS_GROUPS };

/*
 * Read the tree at dir into f, processed as Mess processes it
 * (MESS_RAW_MESS): a curve per rounded measured read share, a point per
 * pause (nop = pause) with bw_gbs, read_bw_gbs,
 * write_bw_gbs, bw_gbs_std, read_pct, lat_ns, lat_ns_std, repeats, and
 * ghz_min / ghz_max the chase's clock over its repetitions.  0, -ENOENT
 * (no plotter.txt, bw/ or lat/), -EINVAL (a file that is not perf stat
 * output of these events; err names it and the line), -ENOMEM.
 */
int mess_raw_read(const char *dir, struct mess_family *f, struct mess_raw *r,
		  char *err, size_t errlen);

/* r as nothing is known: NAN figures, -1 counts, Mess's defaults
 * (CACHE_LINE_SIZE 64, UPI_SCALING_FACTOR 9). */
void mess_raw_init(struct mess_raw *r);

/* dir/plotter.txt into r (from mess_raw_init): 0, -ENOENT, -EINVAL with
 * err naming the file and the line. */
int mess_raw_plotter(const char *dir, struct mess_raw *r, char *err,
		     size_t errlen);

/*
 * The theoretical peak r's plotter values give, in GB/s, NAN when one is
 * missing: MEM_FREQ x N_CHANNELS x BUS_WIDTH / 8; a remote tree's
 * (MEMORY_BINDING=remote) its links', NVLINK_BW_GB_S or 2 (both
 * directions) x UPI_FREQ x N_DATA_LANES x DATA_FLIT_BIT / FLIT_BIT x
 * N_UPI_CHANNELS / 8, as Mess-2.0's utils/plotter.py draws it.  how (may
 * be NULL) says the figures, after where.
 */
double mess_raw_peak_gbs(const struct mess_raw *r, const char *where,
			 char *how, size_t howlen);

/* The same, processed as how says (mess_raw_read: MESS_RAW_MESS). */
int mess_raw_read_as(const char *dir, enum mess_raw_processing how,
		     struct mess_family *f, struct mess_raw *r, char *err,
		     size_t errlen);

/*
 * A Mess-benchmark v1 tree (bsc-mem/Mess-benchmark's A64FX tree) under
 * base (its measuring/ directory): bw/bw_perf_<R>_<pause>.txt, blocks of
 * "<n> MEM Read", "<n> MEM Write", "<f> rd_percentage" (0..1), "<s> time
 * seconds" and "<GB/s> BW (GB/s)" a repetition; lat/lat_perf_<R>_<pause>.txt,
 * the chase's "mem latency is: <ns>ns" a repetition; no plotter.txt.
 * A curve per generator read ratio R (store_pct 100 - R), a point per pause:
 * bw_gbs the mean of the file's BW (GB/s) lines, read_pct of its
 * rd_percentage x 100, lat_ns of its latency lines, with their sample
 * deviations.  r as mess_raw_init leaves it but for the counts and family
 * "mess-v1-bw-lines".  0, -ENOENT, -EINVAL (err: the file and line),
 * -ENOMEM.
 */
int mess_raw_v1_read(const char *base, struct mess_family *f,
		     struct mess_raw *r, char *err, size_t errlen);

#endif
