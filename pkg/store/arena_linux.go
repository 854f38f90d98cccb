package store

// SQLite allocates from C's malloc, a block for each page it reads. glibc
// gives each thread that allocates a heap of its own (an arena, up to
// eight per core), and such a heap grows by one mprotect a page: Go runs
// the store's queries on whichever thread holds the goroutine, so log -n
// 1000's links, read on a goroutine of their own, took some 250 mprotect
// calls for the ~300 pages they read, each a TLB flush on the other core.
// With one arena for the process (what MALLOC_ARENA_MAX=1 makes) C's heap
// grows by brk, 128 KB at a time: 8 mprotect calls in all. Only C
// allocates from it (Go has its own heap), and a process holds one
// connection to links.sqlite. Set in a C constructor: a thread takes its
// arena when it first allocates, so the limit must come before the Go
// runtime starts its threads.

/*
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#include <stdio.h>
#include <string.h>

__attribute__((constructor)) static void convo_one_malloc_arena(void) {
	mallopt(M_ARENA_MAX, 1);
}

// convo_malloc_arenas is how many arenas malloc_info lists (-1: unknown).
static int convo_malloc_arenas(void) {
	char *buf = 0;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) return -1;
	int rc = malloc_info(0, f);
	fclose(f);
	int n = 0;
	for (char *p = buf; rc == 0 && p && (p = strstr(p, "<heap nr=")); p++) n++;
	free(buf);
	return rc == 0 ? n : -1;
}
#else
static int convo_malloc_arenas(void) { return -1; }
#endif
*/
import "C"

// mallocArenas is how many arenas C's malloc has made (-1: not glibc's).
func mallocArenas() int { return int(C.convo_malloc_arenas()) }
