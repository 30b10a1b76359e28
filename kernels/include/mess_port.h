/* SPDX-License-Identifier: MIT */
/*
 * What every kernels/asm/<isa>/port.h defines its timer's row against
 * (kernels/README.md): where the rate of the timer chase_timed.S reads
 * (mess_timer_now) is stated: the register mess_timer_hz reads, a file of
 * kHz, a file of one big-endian 32-bit Hz, or a "key: Hz" line; checked
 * against a calibration on CLOCK_MONOTONIC either way.
 */
#ifndef MESS_PORT_COMMON_H
#define MESS_PORT_COMMON_H

#define MESS_PORT_RATE_REGISTER 0
#define MESS_PORT_RATE_KHZ_FILE 1
#define MESS_PORT_RATE_BE32_FILE 2
#define MESS_PORT_RATE_KEY_LINE 3

#endif
