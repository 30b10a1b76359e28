// SPDX-License-Identifier: MIT
#include "core/signals.h"

volatile sig_atomic_t mess_interrupted;

static void on_signal(int sig)
{
	mess_interrupted = sig;
}

void mess_signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
