/* Named steps with their elapsed time on stderr (cli.h). On a terminal a small ticker
 * thread redraws one live line ("\r", the text, clear to end of line) a few times a
 * second once a step has run for a second; the step's work runs in the caller. The
 * ticker writes with write(2), never through stdio, and blocks every signal, and a
 * fork handler forgets the step in the child: work that forks children (clang,
 * Verilator, the C++ compiler) finds no stdio lock or mutex held by a thread that the
 * child does not have. Not on a terminal (or TERM=dumb) there is no thread and no
 * control character: one plain line when a step begins and one when it ends. */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LIVE_AFTER_SECONDS 1.0 /* a step shows its live line after this long */
#define REDRAW_SECONDS 0.25    /* then redraws it this often */

/* The running step, shared with the ticker thread under `lock`. */
static struct {
    pthread_mutex_t lock;   /* guards the members below */
    pthread_cond_t wake;    /* signalled when the step ends */
    pthread_t ticker;       /* the thread drawing the live line */
    int ticker_running;     /* 1 while `ticker` is to be joined */
    int active;             /* 1 while a step runs */
    int stop;               /* 1: the ticker is to return */
    int terminal;           /* 1 when stderr is a terminal that understands \r and ESC[K */
    int live_drawn;         /* 1 once the live line is on the screen */
    char name[256];         /* the step's name */
    struct timespec start;  /* when it began (CLOCK_MONOTONIC) */
} step = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* In a forked child only the forking thread exists: no ticker to join, no step. */
static void forget_step_in_child(void)
{
    pthread_mutex_init(&step.lock, NULL);
    step.ticker_running = 0;
    step.active = 0;
}

static void init(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&step.wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_atfork(NULL, NULL, forget_step_in_child);
}

static void write_all(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* Columns of the terminal, or 80 when it does not say. */
static int terminal_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
        return ws.ws_col;
    return 80;
}

/* Draws the live line; the caller holds the lock. */
static void draw_live_line(double elapsed)
{
    char line[512];
    int width = terminal_width() - 1; /* never touch the last column: no wrap */
    if (width > (int)sizeof line - 8)
        width = (int)sizeof line - 8;
    char text[400];
    int n = snprintf(text, sizeof text, "clhls: %s ... %.1f s", step.name, elapsed);
    if (n > width)
        n = width;
    if (n < 0)
        return;
    int len = snprintf(line, sizeof line, "\r%.*s\033[K", n, text);
    write_all(line, (size_t)len);
    step.live_drawn = 1;
}

static void *tick(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&step.lock);
    struct timespec next = step.start;
    double wait = LIVE_AFTER_SECONDS;
    while (!step.stop) {
        long ns = next.tv_nsec + (long)((wait - (long)wait) * 1e9);
        next.tv_sec += (time_t)wait + ns / 1000000000L;
        next.tv_nsec = ns % 1000000000L;
        while (!step.stop &&
               pthread_cond_timedwait(&step.wake, &step.lock, &next) != ETIMEDOUT)
            ;
        if (step.stop)
            break;
        draw_live_line(seconds_since(&step.start));
        wait = REDRAW_SECONDS;
    }
    pthread_mutex_unlock(&step.lock);
    return NULL;
}

/* Starts the ticker with every signal blocked in it, so that SIGCHLD, SIGINT and the
 * like go to the thread doing the work. */
static void start_ticker(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    step.stop = 0;
    step.ticker_running = pthread_create(&step.ticker, NULL, tick, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void cli_step_begin(const char *fmt, ...)
{
    pthread_once(&init_once, init);
    if (step.active)
        cli_step_end(1);
    char name[sizeof step.name];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    const char *term = getenv("TERM");
    int terminal = isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));

    pthread_mutex_lock(&step.lock);
    memcpy(step.name, name, sizeof name);
    clock_gettime(CLOCK_MONOTONIC, &step.start);
    step.terminal = terminal;
    step.live_drawn = 0;
    step.active = 1;
    pthread_mutex_unlock(&step.lock);
    if (terminal)
        start_ticker();
    else
        fprintf(stderr, "clhls: %s ...\n", name);
}

void cli_step_end(int ok)
{
    pthread_once(&init_once, init);
    if (!step.active)
        return;
    if (step.ticker_running) {
        pthread_mutex_lock(&step.lock);
        step.stop = 1;
        pthread_cond_signal(&step.wake);
        pthread_mutex_unlock(&step.lock);
        pthread_join(step.ticker, NULL);
        step.ticker_running = 0;
    }
    double elapsed = seconds_since(&step.start);
    const char *how = ok ? "done" : "failed";
    if (step.terminal)
        fprintf(stderr, "%sclhls: %s ... %s in %.1f s\n", step.live_drawn ? "\r\033[K" : "",
                step.name, how, elapsed);
    else
        fprintf(stderr, "clhls: %s %s in %.1f s\n", step.name, how, elapsed);
    step.active = 0;
}

/* Appends prefix and word, the word quoted when it has white space and quote is set
 * (as the options parser reads it); 0, or -1 when out of memory. */
static int add_option(cli_build_options *o, const char *prefix, const char *word, int quote)
{
    quote = quote && strpbrk(word, " \t\n") != NULL;
    size_t add = strlen(prefix) + strlen(word) + 4;
    char *t = realloc(o->text, o->len + add);
    if (!t) {
        fprintf(stderr, "clhls: out of memory\n");
        return -1;
    }
    o->text = t;
    o->len += (size_t)snprintf(t + o->len, add, "%s%s%s%s%s", o->len ? " " : "", prefix,
                               quote ? "\"" : "", word, quote ? "\"" : "");
    return 0;
}

/* Appends -I DIR (prefix "-I " or "-I", as given) with DIR made absolute. */
static int add_include(cli_build_options *o, const char *prefix, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "clhls: -I %s: no such directory\n", dir);
        return -1;
    }
    if (dir[0] == '/')
        return add_option(o, prefix, dir, 1);
    char cwd[4096], path[8300];
    if (!getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "clhls: cannot find the current directory: %s\n", strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s", cwd, dir);
    return add_option(o, prefix, path, 1);
}

int cli_take_build_option(cli_build_options *o, int argc, char **argv, int *i, int sources)
{
    const char *a = argv[*i];
    int value = *i + 1 < argc;
    if (!strcmp(a, "--options") && value)
        return !*argv[++*i] || !add_option(o, "", argv[*i], 0) ? 1 : -1; /* as it is */
    if (!sources)
        return 0;
    if (!strcmp(a, "-D") && value)
        return add_option(o, "-D ", argv[++*i], 1) ? -1 : 1;
    if (!strncmp(a, "-D", 2) && a[2])
        return add_option(o, "-D", a + 2, 1) ? -1 : 1;
    if (!strcmp(a, "-I") && value)
        return add_include(o, "-I ", argv[++*i]) ? -1 : 1;
    if (!strncmp(a, "-I", 2) && a[2])
        return add_include(o, "-I", a + 2) ? -1 : 1;
    return 0;
}
