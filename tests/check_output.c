/* check_output.c: what the result files say about how they were made (provenance, --version),
 * and that they stay readable whatever the names in them: CSV fields quoted per RFC 4180,
 * JSON strings valid UTF-8, no bandwidth where there is no time; the readers of JSON Lines
 * files; the progress line's estimate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "cli_run.h"
#include "util/digest.h"
#include "util/jsonlines.h"
#include "util/textclean.h"
#include "sim/progress.h"

static const char *str(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* FIPS 180-2's examples, and the platform file as sha256sum sees it */
START_TEST(sha256_known_vectors)
{
  char hex[65];
  ck_assert_int_eq(util_sha256("abc", 3, hex), 0);
  ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  ck_assert_int_eq(util_sha256("", 0, hex), 0);
  ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  ck_assert_int_eq(util_sha256(two, strlen(two), hex), 0);
  ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  char want[65] = "";
  FILE *p = popen("sha256sum platforms/dgx1.xml", "r");
  ck_assert(p && fscanf(p, "%64s", want) == 1);
  pclose(p);
  ck_assert_int_eq(util_sha256_file("platforms/dgx1.xml", hex), 0);
  ck_assert_str_eq(hex, want);
  ck_assert_int_ne(util_sha256_file("platforms/no-such.xml", hex), 0);
}
END_TEST

static int is_iso_utc(const char *s)
{
  int y, mo, d, h, mi, sec;
  char z;
  return strlen(s) == 20 && sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &sec, &z) == 7 && z == 'Z';
}

START_TEST(every_result_file_says_how_it_was_made)
{
  char dir[64], args[512], path[160], want[65], host[256] = "";
  ck_assert_int_eq(cli_tmpdir(dir, "check_output"), 0);
  snprintf(args, sizeof args, "--platform dgx1 --algo ring,tree --sizes 4K,8K --csv %s/r.csv --jsonl %s/r.jsonl", dir,
           dir);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result v = cli_run("--version", 0);
  ck_assert_int_eq(v.status, 0);
  ck_assert_int_eq(util_sha256_file("platforms/dgx1.xml", want), 0);
  gethostname(host, sizeof host - 1);

  const cJSON *prov = cJSON_GetObjectItemCaseSensitive(r.json, "provenance");
  ck_assert_ptr_nonnull(strstr(str(prov, "command"), "--platform dgx1 --algo ring,tree --sizes 4K,8K --csv"));
  ck_assert_str_eq(str(prov, "platform_sha256"), want);
  ck_assert_str_eq(str(prov, "host"), host);
  ck_assert(is_iso_utc(str(prov, "start_time")));
  double wall = cli_num(prov, "wall_s");
  ck_assert(wall > 0 && wall < 600);
  /* --version names the same tool version and SimGrid's */
  char line[160];
  snprintf(line, sizeof line, "simallreduce %s\nSimGrid %s ", str(prov, "version"), str(prov, "simgrid_version"));
  ck_assert_msg(strncmp(v.out, line, strlen(line)) == 0, "%s against %s", v.out, line);
  ck_assert(strlen(str(prov, "version")) > 0 && strncmp(str(prov, "simgrid_version"), "3.", 2) == 0);
  /* the options --resume compares */
  const cJSON *opt = cJSON_GetObjectItemCaseSensitive(r.json, "options");
  ck_assert_str_eq(str(opt, "dtype"), "fp32");
  ck_assert(cli_num(opt, "segment") == 1 << 20);

  /* the CSV's first line says the same */
  snprintf(path, sizeof path, "%s/r.csv", dir);
  FILE *f = fopen(path, "r");
  char csv[4096];
  ck_assert(f && fgets(csv, sizeof csv, f));
  fclose(f);
  char head[512];
  snprintf(head, sizeof head, "# simallreduce %s; simgrid %s; platform sha256 %s; host %s; start %s; command ",
           str(prov, "version"), str(prov, "simgrid_version"), want, host, str(prov, "start_time"));
  ck_assert_msg(strncmp(csv, head, strlen(head)) == 0, "%s", csv);
  ck_assert_ptr_nonnull(strstr(csv, str(prov, "command")));

  /* the JSON Lines: the header has the provenance, the end the wall time; read as one document
   * they hold the same results as --json */
  snprintf(path, sizeof path, "%s/r.jsonl", dir);
  char *text = NULL;
  size_t cap = 0;
  f = fopen(path, "r");
  ck_assert(f && getdelim(&text, &cap, '\0', f) > 0);
  fclose(f);
  cJSON *doc = util_jsonl_doc(text, UTIL_REC_RESULT, "results");
  free(text);
  ck_assert_ptr_nonnull(doc);
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
  ck_assert_str_eq(str(cJSON_GetObjectItem(doc, "provenance"), "platform_sha256"), want);
  ck_assert(cli_num(doc, "wall_s") > 0);
  const cJSON *a = cJSON_GetObjectItem(doc, "results"), *b = cJSON_GetObjectItem(r.json, "results");
  ck_assert_int_eq(cJSON_GetArraySize(a), 4);
  ck_assert(cJSON_Compare(a, b, 1));
  cJSON_Delete(doc);
  cli_result_free(&r);
  cli_result_free(&v);
  cli_rmtree(dir);
}
END_TEST

/* RFC 4180 fields of one line: their number, and the first one unquoted into first. */
static int csv_fields(const char *line, char *first, size_t len)
{
  int n = 1, quoted = 0;
  size_t k = 0;
  for (const char *c = line; *c && *c != '\n'; c++) {
    if (quoted && *c == '"' && c[1] == '"')
      c++;
    else if (*c == '"') {
      quoted = !quoted;
      continue;
    } else if (!quoted && *c == ',') {
      n++;
      continue;
    }
    if (n == 1 && k + 1 < len)
      first[k++] = *c;
  }
  first[k] = '\0';
  return n;
}

/* The platform is named after its file: a comma and a quote in it must not move the columns;
 * bytes that are not UTF-8 become U+FFFD in the JSON. */
START_TEST(odd_platform_names_keep_the_files_readable)
{
  char dir[64], xml[160], args[600], path[160], cmd[400];
  ck_assert_int_eq(cli_tmpdir(dir, "check_output"), 0);
  snprintf(xml, sizeof xml, "%s/we,ird\"name.xml", dir);
  snprintf(cmd, sizeof cmd, "cp platforms/dgx1.xml '%s'", xml);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(args, sizeof args, "--platform '%s' --algo ring --sizes 4K,8K --csv %s/r.csv --mode both", xml, dir);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_str_eq(str(r.json, "platform"), "we,ird\"name");
  snprintf(path, sizeof path, "%s/r.csv", dir);
  FILE *f = fopen(path, "r");
  char line[4096], first[64];
  int header = -1, rows = 0;
  while (f && fgets(line, sizeof line, f)) {
    if (line[0] == '#')
      continue;
    int n = csv_fields(line, first, sizeof first);
    if (header < 0) {
      header = n;
      continue;
    }
    ck_assert_int_eq(n, header);
    ck_assert_str_eq(first, "we,ird\"name");
    rows++;
  }
  fclose(f);
  ck_assert_int_eq(header, 20);
  ck_assert_int_eq(rows, 2);
  cli_result_free(&r);

  snprintf(xml, sizeof xml, "%s/bad\xff\xfe-name.xml", dir);
  snprintf(cmd, sizeof cmd, "cp platforms/dgx1.xml '%s'", xml);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(args, sizeof args, "--platform '%s' --algo ring --size 4K --jsonl %s/r.jsonl", xml, dir);
  r = cli_run(args, 1);
  ck_assert_msg(r.status == 0 && r.json, "%s", r.err);
  ck_assert_str_eq(str(r.json, "platform"), "bad\xef\xbf\xbd\xef\xbf\xbd-name");
  ck_assert_ptr_null(strstr(str(r.json, "platform_file"), "\xff"));
  ck_assert_ptr_nonnull(strstr(str(cJSON_GetObjectItem(r.json, "provenance"), "command"), "bad\xef\xbf\xbd"));
  snprintf(path, sizeof path, "%s/r.jsonl", dir);
  f = fopen(path, "r");
  int c, raw = 0;
  while (f && (c = fgetc(f)) != EOF)
    raw += c == 0xff || c == 0xfe;
  fclose(f);
  ck_assert_int_eq(raw, 0);
  cli_result_free(&r);
  cli_rmtree(dir);
}
END_TEST

START_TEST(utf8_repair)
{
  const char *in[] = {"plain", "caf\xc3\xa9", "\xff", "a\xc0\xafz", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82",
                      "\xf0\x9f\x98\x80"};
  const char *out[] = {"plain", "caf\xc3\xa9", "\xef\xbf\xbd", "a\xef\xbf\xbd\xef\xbf\xbdz",
                       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
                       "\xef\xbf\xbd\xef\xbf\xbd", "\xf0\x9f\x98\x80"};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    char *v = util_utf8_valid(in[i]);
    ck_assert_msg(strcmp(v, out[i]) == 0, "case %zu", i);
    free(v);
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "k\xff", "v\xfe");
  ck_assert_int_eq(util_json_utf8(o), 0);
  ck_assert_str_eq(str(o, "k\xef\xbf\xbd"), "v\xef\xbf\xbd");
  cJSON_Delete(o);
}
END_TEST

START_TEST(csv_quoting)
{
  const char *in[] = {"plain", "a,b", "say \"hi\"", "two\nlines", " lead", ""};
  const char *out[] = {"plain", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"", "\" lead\"", ""};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    char buf[64] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    util_csv_field(f, in[i]);
    fclose(f);
    ck_assert_str_eq(buf, out[i]);
  }
}
END_TEST

/* --mode model: mpi has no model, so no time and no bandwidth: null in JSON, empty in CSV */
START_TEST(no_bandwidth_without_a_time)
{
  char dir[64], args[256], path[160];
  ck_assert_int_eq(cli_tmpdir(dir, "check_output"), 0);
  snprintf(args, sizeof args, "--platform dgx1 --mode model --algo mpi,ring --size 1M --csv %s/r.csv", dir);
  cli_result r = cli_run(args, 1);
  ck_assert_int_eq(r.status, 0);
  const cJSON *mpi = cli_point(&r, 0), *ring = cli_point(&r, 1);
  ck_assert_str_eq(str(mpi, "algo"), "mpi");
  ck_assert(cJSON_IsNull(cJSON_GetObjectItem(mpi, "algbw_GBps")) && cJSON_IsNull(cJSON_GetObjectItem(mpi, "busbw_GBps")));
  ck_assert(cli_num(ring, "busbw_GBps") > 0);
  snprintf(path, sizeof path, "%s/r.csv", dir);
  FILE *f = fopen(path, "r");
  char line[4096];
  int found = 0;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "dgx1,1,8,8,mpi,", 15) == 0) {
      /* time_s, algbw and busbw are the 9th to 11th fields */
      const char *c = line;
      for (int k = 0; k < 8; k++)
        c = strchr(c, ',') + 1;
      ck_assert_msg(strncmp(c, ",,,", 3) == 0, "%s", line);
      found = 1;
    }
  fclose(f);
  ck_assert(found);
  cli_result_free(&r);
  cli_rmtree(dir);
}
END_TEST

/* The runner's stream read whole: the header's fields and the points; a last line cut short
 * left out, the missing end line noticed; a document of before the stream still read. */
START_TEST(jsonl_documents)
{
  const char *head = "{\"record\":\"header\",\"mode\":\"simulated\",\"ranks\":2}\n";
  const char *pt = "{\"record\":\"point\",\"algo\":\"ring\",\"bytes\":8}\n";
  char text[512];
  snprintf(text, sizeof text, "%s%s%s{\"record\":\"end\",\"points\":2}\n", head, pt, pt);
  cJSON *d = util_jsonl_runner_doc(text);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(d, "points")), 2);
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(d, "complete")) && cli_num(d, "ranks") == 2);
  ck_assert_ptr_null(cJSON_GetObjectItem(d, "record"));
  cJSON_Delete(d);
  snprintf(text, sizeof text, "%s%s{\"record\":\"point\",\"al", head, pt); /* killed while writing */
  d = util_jsonl_runner_doc(text);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(d, "points")), 1);
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(d, "complete")));
  cJSON_Delete(d);
  d = util_jsonl_runner_doc("{\"mode\":\"measured\",\"points\":[]}");
  ck_assert(d && cJSON_IsTrue(cJSON_GetObjectItem(d, "complete")));
  cJSON_Delete(d);
  const char *bad[] = {"", "garbage\n", "{\"record\":\"point\"}\n", "{\"record\":\"header\"}\n{\"record\":\"header\"}\n",
                       "{\"record\":\"header\"}\n{\"record\":\"end\"}\n{\"record\":\"point\"}\n",
                       "{\"record\":\"header\"}\n{\"record\":\"result\"}\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    d = util_jsonl_runner_doc(bad[i]);
    ck_assert_msg(d == NULL, "case %zu read", i);
  }
}
END_TEST

/* Time left: per algorithm, from what its points took; the running point's time counted. */
START_TEST(progress_estimate)
{
  sim_slot s[5] = {{.algo = "ring", .done = 1, .wall_s = 2},
                   {.algo = "ring", .done = 1, .wall_s = 4},
                   {.algo = "ring"},
                   {.algo = "tree"},
                   {.algo = "ring"}};
  sim_plan pl = {s, 5, 2};
  /* ring: 3 s each; tree: none done, the mean of all, 3 s; 1 s into the first */
  ck_assert_double_eq_tol(sim_progress_left(&pl, 1), 2 + 3 + 3, 1e-12);
  ck_assert_double_eq_tol(sim_progress_left(&pl, 10), 0 + 3 + 3, 1e-12);
  s[3].done = 1;
  s[3].wall_s = 0.5;
  ck_assert_double_eq_tol(sim_progress_left(&pl, 0), 3 + 3, 1e-12);
  sim_plan none = {s + 2, 1, 0};
  ck_assert(sim_progress_left(&none, 0) < 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("output");
  CHECK_CASE(s, "units", 10, sha256_known_vectors, utf8_repair, csv_quoting, jsonl_documents, progress_estimate);
  CHECK_CASE(s, "files", 60, every_result_file_says_how_it_was_made, odd_platform_names_keep_the_files_readable,
             no_bandwidth_without_a_time);
  return check_run(s);
}
