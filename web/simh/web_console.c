/* The PDP-1's console for SIMH compiled to WebAssembly: JavaScript calls in, the machine runs a
   bounded slice, and returns.

   Why: in a browser (or a Worker) nothing may run on its own; SIMH's own console reads a terminal
   and its `sim>` loop reads stdin forever.  Here JavaScript drives SIMH through its own command
   interpreter, one command line a call (web_command), and every run (`boot`, `run`, `cont`, `go`,
   `step`) ends after at most `budget` instructions: an event scheduled that many time units ahead
   stops it (SIMH counts one time unit an instruction).  The typewriter and everything SIMH prints
   go to one stream, in order, which the call returns; keys wait in a queue that the typewriter's own
   keyboard poll (pdp1_stddev.c, unchanged) takes one at a time, as from a terminal.

   sim_console.c is patched (console.patch) to leave its terminal routines to this file under
   Emscripten; scp.c's main is renamed simh_main and run once, to set SIMH up as it would. */

#include "sim_defs.h"
#include "scp.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <emscripten/emscripten.h>

extern char *(*sim_vm_read) (char *ptr, int32 size, FILE *stream);
extern int32 sim_int_char;
extern int32 sim_switches;
extern REG *sim_PC;
extern const char *scp_error_messages[];
t_value get_rval (REG *rptr, uint32 idx);
int simh_main (int argc, char *argv[]);

#define CONSOLE_FILE "/tmp/.console"   /* stdout, in the in-memory file system */
#define KEY_QUEUE 65536

static unsigned char keys[KEY_QUEUE];
static unsigned int key_head, key_tail;   /* taken at head, added at tail */
static int32 budget;                     /* instructions a run may take; 0: no limit */
static int budget_spent;                 /* the last run ended by its budget */
static long run_end = -1;                /* where the last run ended in the output: its stop message follows */
static int exited;                       /* `quit` or `exit` was given */
static char *output;                     /* the last command's output, NUL-terminated */
static long output_length;

static t_stat budget_svc (UNIT *uptr)
{
budget_spent = 1;
return SCPE_STEP;                         /* SIMH then prints "Step expired", which web_command drops */
}

static UNIT budget_unit = { UDATA (&budget_svc, 0, 0) };

/* -- the console routines sim_console.c leaves to this file under Emscripten -- */

t_stat sim_ttinit (void) { return SCPE_OK; }

t_stat sim_ttrun (void)                   /* a run begins (after `boot`/`run` reset the event queue) */
{
if (budget > 0)
    sim_activate (&budget_unit, budget);
return SCPE_OK;
}

t_stat sim_ttcmd (void)                   /* the run has ended: SIMH prints why next */
{
sim_cancel (&budget_unit);
fflush (stdout);
run_end = ftell (stdout);
return SCPE_OK;
}

t_stat sim_ttclose (void) { return sim_ttcmd (); }

t_stat sim_os_poll_kbd (void)             /* one key a poll, as read() from a terminal gives them */
{
unsigned char c;

if (key_head == key_tail)
    return SCPE_OK;
c = keys[key_head++ % KEY_QUEUE];
if (c == sim_int_char)                    /* ^E stops the simulation, as on a terminal */
    return SCPE_STOP;
return c | SCPE_KFLAG;
}

t_stat sim_os_putchar (int32 out)
{
fputc (out, stdout);
return SCPE_OK;
}

/* -- what JavaScript calls -- */

static char *init_read (char *ptr, int32 size, FILE *stream)
{
strcpy (ptr, "exit");                     /* SIMH's main has set everything up: return to us */
return ptr;
}

static void take_output (void)            /* the stream so far into `output`, and empty it */
{
long size;

fflush (stdout);
size = ftell (stdout);
free (output);
output = (char *) calloc (size + 1, 1);
fseek (stdout, 0, SEEK_SET);
output_length = (long) fread (output, 1, size, stdout);
fseek (stdout, 0, SEEK_SET);
ftruncate (fileno (stdout), 0);
}

EMSCRIPTEN_KEEPALIVE int web_init (void)
{
char *argv[] = { "pdp1", "-q", NULL };

if (freopen (CONSOLE_FILE, "w+", stdout) == NULL)
    return 1;
sim_vm_read = &init_read;
simh_main (2, argv);
sim_vm_read = NULL;
take_output ();                           /* the prompt main printed */
return 0;
}

/* Run one SIMH command line, as typed at `sim>`; a run stops after at most `limit` instructions
   (0: none).  Returns SIMH's status (SCPE_OK is 0); web_output() holds what it printed. */
EMSCRIPTEN_KEEPALIVE int web_command (const char *line, int limit)
{
char cbuf[CBUFSIZE], gbuf[CBUFSIZE], *cptr;
CTAB *cmdp;
t_stat stat;

if (exited)
    return SCPE_EXIT;
strncpy (cbuf, line, CBUFSIZE - 1);
cbuf[CBUFSIZE - 1] = 0;
budget = limit;
budget_spent = 0;
run_end = -1;
cptr = get_glyph (cbuf, gbuf, 0);
sim_switches = 0;
if ((cmdp = find_cmd (gbuf)))
    stat = cmdp->action (cmdp->arg, cptr);
else stat = SCPE_UNK;
if (stat == SCPE_EXIT)
    exited = 1;
else if (stat >= SCPE_BASE)
    printf ("%s\n", scp_error_messages[stat - SCPE_BASE]);
budget = 0;
take_output ();
return stat;
}

EMSCRIPTEN_KEEPALIVE const char *web_output (void) { return output ? output : ""; }
EMSCRIPTEN_KEEPALIVE int web_output_length (void) { return output ? (int) output_length : 0; }

/* 1 when the last command's run ended because its budget was spent: its "Step expired" is no stop */
EMSCRIPTEN_KEEPALIVE int web_budget_spent (void) { return budget_spent; }

/* Where in web_output() the last command's run ended (SIMH's message of why follows); -1: it ran nothing */
EMSCRIPTEN_KEEPALIVE int web_run_end (void) { return (int) run_end; }

EMSCRIPTEN_KEEPALIVE int web_pc (void) { return (int) get_rval (sim_PC, 0); }

/* Keys typed on the console typewriter: taken one a keyboard poll.  The number queued. */
EMSCRIPTEN_KEEPALIVE int web_keys (const char *text)
{
while (*text && key_tail - key_head < KEY_QUEUE)
    keys[key_tail++ % KEY_QUEUE] = (unsigned char) *text++;
return (int) (key_tail - key_head);
}

EMSCRIPTEN_KEEPALIVE int web_keys_waiting (void) { return (int) (key_tail - key_head); }
