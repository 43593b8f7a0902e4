/*
 * The command table and the command line: splitting a line into words,
 * finding the command (by name or alias), checking its argument count and
 * mode (expert commands need -x), and the commands that act on the
 * command loop itself (help, echo, source, quit).
 */
#include "config.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "db.h"

#define MAX_CMDS	128

static const struct db_cmd *cmds[MAX_CMDS];
static unsigned ncmds;

/* "log start": a copy of everything printed goes to this file too. */
static FILE *logfile;
static char *logname;

void dbprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (logfile) {
		va_start(ap, fmt);
		vfprintf(logfile, fmt, ap);
		va_end(ap);
	}
}

/*
 * log [stop|start FILE].  The reference names the log by the word
 * "start" in its messages ("logging to start"); so do we.
 */
static int log_f(int argc, char **argv)
{
	if (argc == 1) {
		if (logfile)
			dbprintf("logging to %s\n", logname);
		else
			dbprintf("no log file\n");
	} else if (argc == 2 && !strcmp(argv[1], "stop")) {
		if (logfile) {
			fclose(logfile);
			logfile = NULL;
			free(logname);
			logname = NULL;
		} else {
			dbprintf("no log file\n");
		}
	} else if (argc == 3 && !strcmp(argv[1], "start")) {
		if (logfile) {
			dbprintf("already logging to %s\n", logname);
		} else {
			logfile = fopen(argv[2], "a");
			if (!logfile)
				dbprintf("can't open %s for writing\n", argv[2]);
			else
				logname = strdup(argv[1]);
		}
	} else {
		dbprintf("bad log command, ignored\n");
	}
	return 0;
}

void register_cmds(const struct db_cmd *c, unsigned n)
{
	unsigned i;

	for (i = 0; i < n && ncmds < MAX_CMDS; i++)
		cmds[ncmds++] = &c[i];
}

static int cmd_cmp(const void *a, const void *b)
{
	const struct db_cmd *x = *(const struct db_cmd *const *)a;
	const struct db_cmd *y = *(const struct db_cmd *const *)b;

	return strcmp(x->name, y->name);
}

const struct db_cmd *cmd_find(const char *name)
{
	unsigned i;

	for (i = 0; i < ncmds; i++) {
		const struct db_cmd *c = cmds[i];

		if (c->expert_only && !db.expert)
			continue;
		if (!strcmp(c->name, name) || (c->alias && !strcmp(c->alias, name)))
			return c;
	}
	return NULL;
}

void cmd_table_iter(void (*fn)(const struct db_cmd *c))
{
	unsigned i;

	qsort(cmds, ncmds, sizeof(cmds[0]), cmd_cmp);
	for (i = 0; i < ncmds; i++)
		if (!cmds[i]->expert_only || db.expert)
			fn(cmds[i]);
}

/*
 * Split a line into words.  Double or single quotes group words with
 * their spaces, and stay part of the word, as the reference keeps them
 * (write tells a string value from a number by its opening quote).
 * Returns argc; argv points into buf.
 */
static int split_line(char *buf, char **argv, int max)
{
	int argc = 0;
	char *p = buf, *out;

	while (*p && argc < max) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		argv[argc++] = out = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '"' || *p == '\'') {
				char q = *p;

				*out++ = *p++;
				while (*p && *p != q)
					*out++ = *p++;
				if (*p)
					*out++ = *p++;
				continue;
			}
			*out++ = *p++;
		}
		if (*p)
			p++;
		*out = 0;
	}
	return argc;
}

int run_argv(int argc, char **argv)
{
	const struct db_cmd *c;

	if (!argc)
		return 0;
	c = cmd_find(argv[0]);
	if (!c) {
		dbprintf("command %s not found\n", argv[0]);
		return 0;
	}
	if (argc - 1 < c->minargs && c->maxargs < 0) {
		dbprintf("bad argument count %d to %s, expected at least %d "
			 "arguments\n", argc - 1, argv[0], c->minargs);
		return 0;
	}
	if (argc - 1 < c->minargs ||
	    (c->maxargs >= 0 && argc - 1 > c->maxargs)) {
		if (c->minargs == c->maxargs)
			dbprintf("bad argument count %d to %s, expected %d "
				 "arguments\n", argc - 1, argv[0], c->maxargs);
		else
			dbprintf("bad argument count %d to %s, expected between "
				 "%d and %d arguments\n", argc - 1, argv[0],
				 c->minargs, c->maxargs);
		return 0;
	}
	return c->fn(argc, argv);
}

int run_command_line(const char *line)
{
	char *buf = strdup(line);
	char *argv[256];
	int argc, ret;

	if (!buf)
		return -1;
	argc = split_line(buf, argv, 256);
	ret = run_argv(argc, argv);
	free(buf);
	fflush(stdout);
	return ret;
}

/* ---- help, echo, source, quit ---- */

static void help_one(const struct db_cmd *c, const char *as)
{
	dbprintf("%s %s%s-- %s\n", as, c->args ? c->args : "",
		 c->args ? " " : "", c->oneline);
}

static void help_line(const struct db_cmd *c)
{
	help_one(c, c->name);
}

static int help_f(int argc, char **argv)
{
	const struct db_cmd *c;

	if (argc > 1) {
		c = cmd_find(argv[1]);
		if (!c) {
			dbprintf("command %s not found\n", argv[1]);
			return 0;
		}
		help_one(c, argv[1]);
		help_text(c->name);
		return 0;
	}
	cmd_table_iter(help_line);
	dbprintf("\nUse 'help commandname' for extended help.\n");
	return 0;
}

static int echo_f(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		dbprintf("%s ", argv[i]);
	dbprintf("\n");
	return 0;
}

static int quit_f(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	db.quit = true;
	return 0;
}

static int source_f(int argc, char **argv)
{
	FILE *f;
	char line[4096];

	(void)argc;
	f = fopen(argv[1], "r");
	if (!f) {
		dbprintf("can't open %s\n", argv[1]);
		return 0;
	}
	while (!db.quit && fgets(line, sizeof(line), f))
		run_command_line(line);
	fclose(f);
	return 0;
}

static const struct db_cmd loop_cmds[] = {
	{ "echo", NULL, echo_f, 0, -1, false, false, "[args]...",
	  "echo arguments" },
	{ "help", "?", help_f, 0, 1, false, false, "[command]",
	  "help for one or all commands" },
	{ "log", NULL, log_f, 0, 2, false, false, "[stop|start <filename>]",
	  "start or stop logging to a file" },
	{ "quit", "q", quit_f, 0, 0, false, false, NULL, "exit xfs_db" },
	{ "source", NULL, source_f, 1, 1, false, false, "source-file",
	  "get commands from source-file" },
};

void loop_cmds_init(void)
{
	register_cmds(loop_cmds, sizeof(loop_cmds) / sizeof(loop_cmds[0]));
}
