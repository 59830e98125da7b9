/* Shave a Sheep, random policy on every seat: a plain C99 loop over `count` games.
 *
 * The same rules, random streams and draws as the numba simulator
 * (src/sheepfold/lab/fastsim_shave.py, `_play` with the random policy, called by `_bench`),
 * so for the same seeds it prints the same (wins, turns) as `fastsim_shave.bench`:
 *
 *   - randomness is counter-based: splitmix64 of (game key, stream, counter); the roll of
 *     turn t is stream 0 counter t, Howling Wolf's grab stream 1 counter t, the roller's
 *     choice stream 2 counter 4t, the grabber's target 4t+1, the roller's grow/pass 4t+2;
 *   - the face is the first f with u < cum[f] (the last face if none);
 *   - the grabber is the first seat s with a weight (gcum[s] >= 0) and u < gcum[s]
 *     (the last such seat if none);
 *   - a choice is legal[(int)(u * cnt)] among the engine's sorted legal actions, no draw
 *     used when only one action is legal;
 *   - "wins" counts the games in which seat 0's pile is larger than seat 1's (what `_bench`
 *     counts), "turns" the turns started;
 *   - with POLICY 1 every seat plays the greedy policy instead (kernel/policy.py's `greedy`:
 *     each legal action tried on a copy of the state to the end of the turn, scored by the same
 *     value function in the same order of operations, the first best kept; no draw used).
 *
 * Usage (every number in decimal; cumulative probabilities in any strtod format, C99 hex
 * floats such as 0x1.5555555555555p-3 give them bit for bit):
 *
 *   shave_random PLAYERS WOOL MAX_WOOL CUT MODE MAX_TURNS SEED0 COUNT NFACES
 *                MASK_1 .. MASK_NFACES CUM_1 .. CUM_NFACES GCUM_1 .. GCUM_PLAYERS [POLICY]
 *
 *   CUT: 1 with cutting costs; MODE: 0 standard, 1 howling wolf, 2 my friend mr. wolf;
 *   MAX_TURNS: 0 for no limit; MASK: face actions, 1 grow 2 double 4 swap 8 wolf 16 shear;
 *   GCUM: cumulative grab weights per seat, a negative value for a seat that never grabs;
 *   POLICY: 0 random (the default), 1 greedy.
 *
 * Prints one line: `<wins> <turns> <CPU seconds of the game loop alone>`.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* engine action ids (games/shave_a_sheep/game.py) */
enum { GROW = 0, DOUBLE = 1, SHEAR = 2, SWAP0 = 3, WOLF0 = 7, RAID = 11, PASS = 12 };
enum { B_GROW = 1, B_DOUBLE = 2, B_SWAP = 4, B_WOLF = 8, B_SHEAR = 16 };
enum { MODE_STD = 0, MODE_HOWL = 1, MODE_MRWOLF = 2 };
#define MAX_PLAYERS 4
#define MAX_FACES 16
/* the greedy policy's constants (games/shave_a_sheep/policy.py) */
#define SHEEP_WOOL_VALUE 0.6
#define FULL_SHEEP_VALUE 0.85
#define WIN_VALUE 1000.0

typedef struct {
    int n, wool, max_wool, cut, mode, max_turns, nfaces;
    int mask[MAX_FACES];
    int race[MAX_FACES];
    double cum[MAX_FACES];
    double gcum[MAX_PLAYERS];
} Rules;

typedef struct {
    int middle, turn, turns, wolf, over, truncated;
    int sheep[MAX_PLAYERS];
    int pile[MAX_PLAYERS];
} State;

/* -- random numbers: splitmix64's finaliser over (key, stream, counter) -- */
static uint64_t mix(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static uint64_t game_key(int64_t seed) {
    return mix((uint64_t)seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL);
}

static double uniform(uint64_t key, uint64_t stream, uint64_t counter) {
    uint64_t x = mix(key + stream * 0xD1B54A32D192ED03ULL + counter);
    return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

static int pick(const int *legal, int cnt, double u) {
    int i;
    if (cnt == 1) return legal[0];
    i = (int)(u * cnt);
    if (i >= cnt) i = cnt - 1;
    return legal[i];
}

/* -- the rules -- */
static void shear(State *s, const Rules *r, int seat) {
    int wool = s->sheep[seat];
    if (wool > 0 && r->cut) { /* cutting costs: one piece pays the cut */
        wool -= 1;
        s->middle += 1;
    }
    s->pile[seat] += wool;
    s->sheep[seat] = 0;
}

static void grow(State *s, const Rules *r, int seat, int pieces) {
    int put = pieces;
    if (r->max_wool - s->sheep[seat] < put) put = r->max_wool - s->sheep[seat];
    if (s->middle < put) put = s->middle;
    s->sheep[seat] += put;
    s->middle -= put;
}

static int room(const State *s, const Rules *r, int seat) {
    int x = r->max_wool - s->sheep[seat];
    return s->middle < x ? s->middle : x;
}

static void end_turn(State *s, const Rules *r) {
    int seat;
    if (s->middle == 0) { /* the last piece left the middle: everyone shears, game over */
        for (seat = 0; seat < r->n; seat++) shear(s, r, seat);
        s->over = 1;
        return;
    }
    s->turns += 1;
    if (r->max_turns > 0 && s->turns >= r->max_turns) { /* truncated: no auto-shear */
        s->truncated = 1;
        s->over = 1;
        return;
    }
    s->turn = (s->turn + 1) % r->n;
    if (s->sheep[s->turn] >= r->max_wool) shear(s, r, s->turn); /* auto-shear */
}

static void apply_choice(State *s, const Rules *r, int a) {
    int me = s->turn, k, x, take;
    if (a == GROW) {
        grow(s, r, me, 1);
    } else if (a == DOUBLE) {
        grow(s, r, me, 2);
    } else if (a == SHEAR) {
        shear(s, r, me);
    } else if (a < WOLF0) { /* swap */
        k = a - SWAP0;
        x = s->sheep[me];
        s->sheep[me] = s->sheep[k];
        s->sheep[k] = x;
    } else if (a < RAID) { /* wolf */
        k = a - WOLF0;
        if (r->mode == MODE_MRWOLF) { /* option A: send the wolf, take one piece */
            s->wolf = k;
            if (s->sheep[k] > 0) {
                s->sheep[k] -= 1;
                s->pile[me] += 1;
            }
        } else { /* all its wool back to the middle */
            s->middle += s->sheep[k];
            s->sheep[k] = 0;
        }
    } else if (a == RAID) { /* option B: up to two pieces, the wolf goes home */
        k = s->wolf;
        take = s->sheep[k] < 2 ? s->sheep[k] : 2;
        s->sheep[k] -= take;
        s->pile[me] += take;
        s->wolf = -1;
    } /* PASS: nothing */
    end_turn(s, r);
}

/* the engine's sorted legal actions after rolling a face with these actions */
static int legal_choose(const State *s, const Rules *r, int mask, int *out) {
    int me = s->turn, c = 0, k;
    int rm = room(s, r, me);
    if ((mask & B_GROW) && rm > 0) out[c++] = GROW;
    if ((mask & B_DOUBLE) && rm > 0) out[c++] = DOUBLE;
    if (mask & B_SHEAR) out[c++] = SHEAR;
    if (mask & B_SWAP)
        for (k = 0; k < r->n; k++)
            if (k != me) out[c++] = SWAP0 + k;
    if (mask & B_WOLF) {
        for (k = 0; k < r->n; k++)
            if (k != me) out[c++] = WOLF0 + k;
        if (r->mode == MODE_MRWOLF && s->wolf >= 0 && s->wolf != me) out[c++] = RAID;
    }
    if (c == 0) out[c++] = PASS;
    return c;
}

/* -- the greedy policy (kernel/policy.py: value, greedy) -- */
static double worth(const State *s, const Rules *r, int seat) {
    int wool = s->sheep[seat];
    double rate = wool >= r->max_wool ? FULL_SHEEP_VALUE : SHEEP_WOOL_VALUE;
    return (double)s->pile[seat] + rate * (double)wool;
}

static double value(const State *s, const Rules *r, int me) {
    int seat, best, k = 0;
    double others = -1.0 / 0.0, w;
    if (s->over) {
        if (s->truncated) return 0.0;
        best = s->pile[0];
        for (seat = 1; seat < r->n; seat++)
            if (s->pile[seat] > best) best = s->pile[seat];
        for (seat = 0; seat < r->n; seat++)
            if (s->pile[seat] == best) k++;
        if (s->pile[me] == best) return WIN_VALUE * (1.0 / k);
        return WIN_VALUE * 0.0 - WIN_VALUE / 2;
    }
    for (seat = 0; seat < r->n; seat++)
        if (seat != me) {
            w = worth(s, r, seat);
            if (w > others) others = w;
        }
    return worth(s, r, me) - others;
}

static void apply_choice(State *s, const Rules *r, int a);

/* the first best of legal[:cnt] for seat `me`: a roller's actions (played to the end of the
 * turn) or, with `target`, a grabber's Howling Wolf targets (the take alone) */
static int greedy(const State *s, const Rules *r, int me, const int *legal, int cnt, int target) {
    State trial;
    int j, a, best_a = legal[0], k;
    double v, best_v = -1.0 / 0.0;
    for (j = 0; j < cnt; j++) {
        a = legal[j];
        trial = *s;
        if (target) {
            k = a - WOLF0;
            if (trial.sheep[k] > 0) {
                trial.sheep[k] -= 1;
                trial.middle += 1;
            }
        } else {
            apply_choice(&trial, r, a);
        }
        v = value(&trial, r, me);
        if (v > best_v + 1e-9) {
            best_a = a;
            best_v = v;
        }
    }
    return best_a;
}

static int greedy_seats; /* POLICY 1: every seat plays greedy */

static int decide(const State *s, const Rules *r, int me, const int *legal, int cnt, int target,
                  uint64_t key, uint64_t stream, uint64_t counter) {
    if (cnt == 1) return legal[0];
    if (greedy_seats) return greedy(s, r, me, legal, cnt, target);
    return pick(legal, cnt, uniform(key, stream, counter));
}

/* one game, random (or greedy) choices on every seat; returns the turns started */
static int play(State *s, const Rules *r, int64_t seed) {
    uint64_t key = game_key(seed);
    int legal[16];
    int started = 0, seat, f, face, me, c, a, k, grabber, last, target;
    uint64_t t;
    double u;

    s->middle = r->wool;
    s->turn = s->turns = s->over = s->truncated = 0;
    s->wolf = -1;
    for (seat = 0; seat < r->n; seat++) s->sheep[seat] = s->pile[seat] = 0;

    while (!s->over) {
        started++;
        t = (uint64_t)s->turns;
        /* the roll */
        u = uniform(key, 0, t);
        face = r->nfaces - 1;
        for (f = 0; f < r->nfaces; f++)
            if (u < r->cum[f]) {
                face = f;
                break;
            }
        me = s->turn;
        if (r->race[face]) { /* Howling Wolf: who grabs the wolf */
            u = uniform(key, 1, t);
            grabber = -1;
            last = -1;
            for (seat = 0; seat < r->n; seat++)
                if (r->gcum[seat] >= 0.0) {
                    last = seat;
                    if (u < r->gcum[seat]) {
                        grabber = seat;
                        break;
                    }
                }
            if (grabber < 0) grabber = last;
            c = 0;
            for (k = 0; k < r->n; k++)
                if (k != grabber) legal[c++] = WOLF0 + k;
            target = decide(s, r, grabber, legal, c, 1, key, 2, 4 * t + 1) - WOLF0;
            if (s->sheep[target] > 0) { /* one piece of it goes back to the middle */
                s->sheep[target] -= 1;
                s->middle += 1;
            }
            c = 0;
            if (room(s, r, me) > 0) legal[c++] = GROW;
            legal[c++] = PASS;
            a = decide(s, r, me, legal, c, 0, key, 2, 4 * t + 2);
        } else {
            c = legal_choose(s, r, r->mask[face], legal);
            a = decide(s, r, me, legal, c, 0, key, 2, 4 * t);
        }
        apply_choice(s, r, a);
    }
    return started;
}

static void usage(const char *why) {
    fprintf(stderr,
            "shave_random: %s\nusage: shave_random PLAYERS WOOL MAX_WOOL CUT MODE MAX_TURNS "
            "SEED0 COUNT NFACES MASK.. CUM.. GCUM..\n",
            why);
    exit(2);
}

int main(int argc, char **argv) {
    Rules r;
    State s;
    int64_t seed0, count, g, wins = 0, turns = 0;
    int i, arg = 1;
    struct timespec t0, t1;

    if (argc < 10) usage("too few arguments");
    r.n = atoi(argv[arg++]);
    r.wool = atoi(argv[arg++]);
    r.max_wool = atoi(argv[arg++]);
    r.cut = atoi(argv[arg++]);
    r.mode = atoi(argv[arg++]);
    r.max_turns = atoi(argv[arg++]);
    seed0 = strtoll(argv[arg++], NULL, 10);
    count = strtoll(argv[arg++], NULL, 10);
    r.nfaces = atoi(argv[arg++]);
    if (r.n < 2 || r.n > MAX_PLAYERS) usage("PLAYERS must be 2..4");
    if (r.nfaces < 1 || r.nfaces > MAX_FACES) usage("NFACES must be 1..16");
    if (argc != 10 + 2 * r.nfaces + r.n && argc != 11 + 2 * r.nfaces + r.n)
        usage("wrong number of arguments");
    for (i = 0; i < r.nfaces; i++) r.mask[i] = atoi(argv[arg++]);
    for (i = 0; i < r.nfaces; i++) r.cum[i] = strtod(argv[arg++], NULL);
    for (i = 0; i < r.n; i++) r.gcum[i] = strtod(argv[arg++], NULL);
    greedy_seats = arg < argc && atoi(argv[arg]) == 1;
    /* a gray face starts the race in Howling Wolf */
    for (i = 0; i < r.nfaces; i++) r.race[i] = r.mode == MODE_HOWL && (r.mask[i] & B_WOLF);

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (g = 0; g < count; g++) {
        turns += play(&s, &r, seed0 + g);
        if (s.pile[0] > s.pile[1]) wins++;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("%lld %lld %.6f\n", (long long)wins, (long long)turns,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return 0;
}
