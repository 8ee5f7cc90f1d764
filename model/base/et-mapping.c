/* et-mapping.c — mapped files that may shrink while they are read
 * (see et-mapping.h), and opening only regular files to map.
 *
 * One process-wide SIGBUS handler, installed with each watch unless it is
 * still in place. When the faulting address lies in a watched mapping, it
 * maps anonymous zero pages over the faulting page and everything after it
 * in that mapping (mmap with MAP_FIXED replaces the file pages), notes the
 * offset, and returns: the faulting read is retried and reads zeros. Any other SIGBUS
 * goes to the handler that was there before (or, with none, kills the
 * process as it would have).
 *
 * The compromise, owned here: mmap is not on POSIX's list of
 * async-signal-safe functions. On Linux it is a plain system call that
 * takes no user-space lock, so calling it from the handler is safe in
 * practice; the alternative — copying every file into owned memory before
 * reading it — costs a second copy of every trace (hundreds of MB), and a
 * sigsetjmp around every mapped read costs on every record. The handler
 * itself touches only the fixed slot table, through atomics. Its cost
 * when nothing shrinks: one sigaction per file opened and one atomic load
 * per buffer (loading a 250 MB trace: 0.76 s before and after, the best
 * of five runs on a shared machine).
 */
#include "et-mapping.h"
#include "et-error.h"
#include "et-workers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Traces open at once (windows, CLI loads); more are simply not watched. */
#define N_SLOTS 64

enum { SLOT_FREE, SLOT_BUSY, SLOT_WATCHED };

struct _EtMapping
{
  int      state;      /* SLOT_*, atomic */
  guintptr start;
  gsize    len;
  guint64  lost_from;  /* atomic; G_MAXUINT64 while nothing vanished */
};

static EtMapping slots[N_SLOTS];
static struct sigaction previous;
static guintptr page_mask;

/* Hands the signal on as if we had never been there. */
static void
chain (int sig, siginfo_t *info, void *context)
{
  if (previous.sa_flags & SA_SIGINFO)
    {
      previous.sa_sigaction (sig, info, context);
      return;
    }
  if (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN)
    {
      /* The faulting instruction runs again and gets the default action. */
      sigaction (SIGBUS, &previous, NULL);
      return;
    }
  previous.sa_handler (sig);
}

static gboolean
zero_from (EtMapping *m, guintptr addr)
{
  guintptr page = addr & page_mask;
  guintptr end = (m->start + m->len + ~page_mask) & page_mask;
  guint64 offset = page - m->start;
  guint64 seen;

  if (mmap ((void *) page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
            -1, 0) == MAP_FAILED)
    return FALSE;
  seen = __atomic_load_n (&m->lost_from, __ATOMIC_ACQUIRE);
  while (offset < seen
         && !__atomic_compare_exchange_n (&m->lost_from, &seen, offset, FALSE,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    ;
  return TRUE;
}

static void
on_sigbus (int sig, siginfo_t *info, void *context)
{
  guintptr addr = (guintptr) info->si_addr;

  for (guint i = 0; i < N_SLOTS; i++)
    {
      EtMapping *m = &slots[i];

      if (__atomic_load_n (&m->state, __ATOMIC_ACQUIRE) == SLOT_WATCHED
          && addr >= m->start && addr - m->start < m->len && zero_from (m, addr))
        return;
    }
  chain (sig, info, context);
}

/* (Again) first in line: whoever installed a SIGBUS handler since —
 * a test harness does before every test — is chained to. */
static void
install (void)
{
  static GMutex lock;
  struct sigaction action, current;

  g_mutex_lock (&lock);
  sigaction (SIGBUS, NULL, &current);
  if (!(current.sa_flags & SA_SIGINFO) || current.sa_sigaction != on_sigbus)
    {
      memset (&action, 0, sizeof action);
      action.sa_sigaction = on_sigbus;
      action.sa_flags = SA_SIGINFO | SA_RESTART;
      sigemptyset (&action.sa_mask);
      page_mask = ~((guintptr) sysconf (_SC_PAGESIZE) - 1);
      sigaction (SIGBUS, &action, &previous);
    }
  g_mutex_unlock (&lock);
}

EtMapping *
et_mapping_watch (const void *data, gsize len)
{
  if (data == NULL || len == 0)
    return NULL;
  install ();
  for (guint i = 0; i < N_SLOTS; i++)
    {
      EtMapping *m = &slots[i];
      int expected = SLOT_FREE;

      if (!__atomic_compare_exchange_n (&m->state, &expected, SLOT_BUSY, FALSE,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        continue;
      m->start = (guintptr) data;
      m->len = len;
      m->lost_from = G_MAXUINT64;
      __atomic_store_n (&m->state, SLOT_WATCHED, __ATOMIC_RELEASE);
      return m;
    }
  return NULL;
}

void
et_mapping_unwatch (EtMapping *m)
{
  if (m != NULL)
    __atomic_store_n (&m->state, SLOT_FREE, __ATOMIC_RELEASE);
}

guint64
et_mapping_lost_from (EtMapping *m)
{
  return m != NULL ? __atomic_load_n (&m->lost_from, __ATOMIC_ACQUIRE) : G_MAXUINT64;
}

static const char *
kind_of_file (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO (named pipe)";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "not a regular file";
}

/* O_NONBLOCK makes the open of a FIFO return at once (without a writer
 * it would block for ever); it changes nothing for a regular file. */
int
et_mapping_open_regular (const char *path, GError **error)
{
  struct stat st = { 0 };
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  int saved = errno;

  if (fd >= 0 && fstat (fd, &st) != 0)
    {
      saved = errno;
      close (fd);
      fd = -1;
    }
  if (fd < 0)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_IO, "%s: byte offset 0: cannot open: %s",
                   path, g_strerror (saved));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_IO, "%s: byte offset 0: %s, not a "
                   "regular file: only .etl files can be read", path, kind_of_file (st.st_mode));
      close (fd);
      return -1;
    }
  return fd;
}

/* ---- mapping a large file's pages ahead of its reader ------------------ */

/* The kernel maps the pages around one a read faults in (64 KiB of them
 * by default): a byte read in each such stretch maps them all, and one it
 * does not is faulted in when read. */
#define PREFAULT_STEP  (64u << 10)
/* Below this, the reader maps them as it reads (a thread costs more than
 * it saves). At 64 MiB, PerfView's 30 MB HeartRateMonitor and VoiceMemo
 * .nettrace files were mapped by their reader alone: opening them took
 * 1.4–2.1 ms longer (of 11–12.5, 10 and 11 of 11 paired runs). */
#define PREFAULT_MIN   (8u << 20)

struct _EtPrefault
{
  const volatile guint8 *data;
  gsize                  len;
  gsize                  reached;   /* where the reader is (atomic) */
  gint                   stop;      /* atomic */
  gint                   done;      /* atomic */
  GThread               *thread;
};

static gpointer
prefault_back (gpointer data)
{
  EtPrefault *p = data;
  gsize at = p->len & ~(gsize) (PREFAULT_STEP - 1);
  guint8 sum = 0;

  et_worker_begin ();
  for (;;)
    {
      if (at <= __atomic_load_n (&p->reached, __ATOMIC_RELAXED) || g_atomic_int_get (&p->stop))
        break;
      sum += p->data[at == p->len ? at - 1 : at];
      if (at < PREFAULT_STEP)
        break;
      at -= PREFAULT_STEP;
    }
  g_atomic_int_set (&p->done, 1);
  return GUINT_TO_POINTER (sum);
}

EtPrefault *
et_mapping_prefault_begin (const void *data, gsize len)
{
  EtPrefault *p;

  if (data == NULL || et_workers_count (len, PREFAULT_MIN) < 2)
    return NULL;
  p = g_new0 (EtPrefault, 1);
  p->data = data;
  p->len = len;
  p->thread = g_thread_new ("etlscope-map", prefault_back, p);
  return p;
}

void
et_mapping_prefault_reached (EtPrefault *p, gsize offset)
{
  if (p != NULL)
    __atomic_store_n (&p->reached, offset, __ATOMIC_RELAXED);
}

gboolean
et_mapping_prefault_done (EtPrefault *p)
{
  return p == NULL || g_atomic_int_get (&p->done);
}

void
et_mapping_prefault_end (EtPrefault *p)
{
  if (p == NULL)
    return;
  g_atomic_int_set (&p->stop, 1);
  g_thread_join (p->thread);
  g_free (p);
}
