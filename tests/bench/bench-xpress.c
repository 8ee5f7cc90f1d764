/* bench-xpress — LZ77 (XPRESS) decompression of an .etl file's compressed
 * buffers measured on its own, beside the bare walk over the records it
 * gives (issue 36).
 *
 *   bench-xpress FILE.etl [ROUNDS]
 *
 * Prints one JSON object: the compressed buffers' count, their bytes on
 * disk and decompressed, and the best CPU time (of the one thread doing
 * the work) over ROUNDS (7) rounds of
 *   xpress_s — et_xpress_decompress over every compressed buffer, from the
 *               mapped file into one scratch buffer (as the reader does,
 *               without its bookkeeping);
 *   walk_s    — the bare walk: every buffer's records parsed
 *               (et_record_parse: size, pid, tid, time, id) and summed, over
 *               the bytes the reader decompressed once.
 * and the FNV-1a hash of every decompressed byte (an untimed pass), so
 * that a faster decoder can be shown to give the same bytes. Then the
 * open as loading does it (et_etl_file_open: the buffer walk, then every
 * compressed buffer decompressed on every core into a block of fresh
 * pages): open_s, the best wall time of ROUNDS opens, and open_cores, the
 * process's CPU time ÷ wall time in that open.
 * tests/bench/run sets them beside `cat` of the same file. Each round
 * repeats its work until it has taken a tenth of a CPU second, so that the
 * figure of a small file is not the clock's resolution.
 */
#include <stdlib.h>
#include <time.h>

#include "et-bytes.h"
#include "et-etl-reader.h"
#include "et-xpress.h"

#define BUFFER_FLAG_COMPRESSED 0x40
#define ROUND_NS (100 * G_TIME_SPAN_MILLISECOND * 1000)

typedef struct
{
  EtEtlFile    *file;
  const guint8 *data;        /* the mapped file */
  guint8       *scratch;
  gsize         scratch_cap;
  guint64       in_bytes, out_bytes, sum;
  gboolean      hash_output;   /* one pass, untimed: what the output is */
  guint64       hash;          /* FNV-1a of every byte decompressed */
  guint         n_compressed;
} Bench;

/* Every compressed buffer once; FALSE (with a message) on a bad stream. */
static gboolean
decompress_all (Bench *b)
{
  b->in_bytes = b->out_bytes = 0;
  for (guint i = 0; i < et_etl_file_n_buffers (b->file); i++)
    {
      const EtBufferInfo *info = et_etl_file_buffer_info (b->file, i);
      gsize out_len = 0, bad = 0;
      gsize in_len = info->disk_size - ET_BUFFER_HEADER_SIZE;

      if (!(info->flags & BUFFER_FLAG_COMPRESSED) || !info->usable)
        continue;
      if (et_xpress_decompress (b->data + info->offset + ET_BUFFER_HEADER_SIZE, in_len,
                                b->scratch, b->scratch_cap, &out_len, &bad) != ET_XPRESS_OK)
        {
          g_printerr ("bench-xpress: buffer %u does not decompress (at %zu)\n", i, bad);
          return FALSE;
        }
      b->in_bytes += in_len;
      b->out_bytes += out_len;
      if (b->hash_output)
        for (gsize k = 0; k < out_len; k++)
          b->hash = (b->hash ^ b->scratch[k]) * 0x100000001b3ull;
      else
        b->sum += b->scratch[out_len / 2];
    }
  return TRUE;
}

static gboolean
walk_all (Bench *b)
{
  for (guint i = 0; i < et_etl_file_n_buffers (b->file); i++)
    {
      gsize len, pos = ET_BUFFER_HEADER_SIZE;
      const guint8 *bytes = et_etl_file_buffer (b->file, i, &len);
      EtRecord r;
      const char *reason;

      while (pos + 4 <= len && et_read_u32 (bytes + pos) != 0xFFFFFFFF
             && et_record_parse (bytes + pos, len - pos, &r, &reason))
        {
          b->sum += r.size + r.pid + r.tid + (guint64) r.ts + r.id;
          pos += ((gsize) r.size + 7) & ~(gsize) 7;
        }
    }
  return TRUE;
}

/* CPU time of this thread, in µs: steadier than the clock on a machine
 * that others share. */
static gint64
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gint64
process_cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The best wall seconds of @rounds opens of @path, and the cores used in
 * that one (its CPU time is the process's: every thread's). */
static double
best_open (const char *path, guint rounds, double *cores)
{
  double best = G_MAXDOUBLE;

  for (guint r = 0; r < rounds; r++)
    {
      gint64 wall = g_get_monotonic_time (), cpu = process_cpu_now ();
      EtEtlFile *file = et_etl_file_open (path, NULL, NULL, NULL);

      wall = g_get_monotonic_time () - wall;
      cpu = process_cpu_now () - cpu;
      et_etl_file_free (file);
      if (wall / 1e6 < best)
        {
          best = wall / 1e6;
          *cores = (double) cpu / (double) MAX (wall, 1);
        }
    }
  return best;
}

/* The best CPU seconds per pass of @work over @rounds rounds. */
static double
best_of (Bench *b, gboolean (*work) (Bench *), guint rounds)
{
  double best = G_MAXDOUBLE;

  for (guint r = 0; r < rounds; r++)
    {
      gint64 start = cpu_now (), now;
      guint passes = 0;

      do
        {
          if (!work (b))
            exit (1);
          passes++;
          now = cpu_now ();
        }
      while ((now - start) * 1000 < ROUND_NS);
      best = MIN (best, (double) (now - start) / 1e6 / passes);
    }
  return best;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  Bench b = { 0 };
  guint rounds = argc > 2 ? (guint) atoi (argv[2]) : 7;
  double xpress_s, walk_s, open_s, open_cores = 0;

  if (argc < 2)
    {
      g_printerr ("Usage: bench-xpress FILE.etl [ROUNDS]\n");
      return 2;
    }
  b.file = et_etl_file_open (argv[1], NULL, NULL, &error);
  mapped = b.file != NULL ? g_mapped_file_new (argv[1], FALSE, &error) : NULL;
  if (mapped == NULL)
    {
      g_printerr ("bench-xpress: %s\n", error->message);
      return 1;
    }
  b.data = (const guint8 *) g_mapped_file_get_contents (mapped);
  for (guint i = 0; i < et_etl_file_n_buffers (b.file); i++)
    {
      const EtBufferInfo *info = et_etl_file_buffer_info (b.file, i);

      b.n_compressed += (info->flags & BUFFER_FLAG_COMPRESSED) != 0;
      b.scratch_cap = MAX (b.scratch_cap, info->data_end);
    }
  b.scratch = g_malloc (b.scratch_cap);
  xpress_s = best_of (&b, decompress_all, MAX (rounds, 1));
  walk_s = best_of (&b, walk_all, MAX (rounds, 1));
  b.hash_output = TRUE;
  b.hash = 0xcbf29ce484222325ull;
  decompress_all (&b);
  open_s = best_open (argv[1], MAX (rounds, 1), &open_cores);
  g_print ("{\"compressed_buffers\": %u, \"compressed_bytes\": %" G_GUINT64_FORMAT
           ", \"decompressed_bytes\": %" G_GUINT64_FORMAT ", \"xpress_s\": %.6f"
           ", \"walk_s\": %.6f, \"output_fnv1a\": \"%016" G_GINT64_MODIFIER "x\""
           ", \"open_s\": %.6f, \"open_cores\": %.2f}\n",
           b.n_compressed, b.in_bytes, b.out_bytes, xpress_s, walk_s, b.hash, open_s,
           open_cores);
  g_free (b.scratch);
  et_etl_file_free (b.file);
  return 0;
}
