/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: the command that is recorded, or that only says how long to
 * record; held before its exec until the events are open.
 */
#include "pdrecord/extern.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/cli/msg.h"

/*
 * Forks the command, held before exec until a byte arrives on go[1].
 * *execfd gets the read end of a close-on-exec pipe: end of file there
 * means the exec happened, an errno value that it failed, so that a
 * command that cannot start leaves no output file behind.
 */
pid_t
start_command(char **argv, int go[2], int *execfd, int stdout_to_stderr)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };
	int ex[2];
	pid_t pid;
	size_t i;
	char c;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		pd_warnx("pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) < 0) {
		pd_warnx("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		int e;

		/*
		 * Our handlers first go back to the defaults, then the mask:
		 * a SIGTERM sent before the exec must end the command, not
		 * set a flag in this copy of pdrecord and be lost.
		 */
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(go[1]);
		close(ex[0]);
		if (stdout_to_stderr)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		/* Wait until the events are open; EOF means give up. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		fprintf(stderr, "%s: %s: %s\n", pd_progname(), argv[0],
		    strerror(e));
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	*execfd = ex[0];
	return pid;
}
