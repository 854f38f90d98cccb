package store

// When the last connection to a WAL database closes, SQLite checkpoints the
// log into the database and deletes it: four fsyncs, most of what a hook's
// capture costs beyond process start. SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE turns
// that off, but go-sqlite3 neither exposes it nor hands out a connection's
// handle. sqlite3_auto_extension does: SQLite calls the function below for
// every connection it opens in this process, with the SQLite go-sqlite3
// compiles in. It sets the option only on connections whose URI asks for it
// (noCkptParam, which dsn sets), so an agent's database opened through
// go-sqlite3 is never touched. Registering the same function again is a
// no-op in SQLite, so Open registers it every time and keeps no state.
//
// Close keeps the log short instead (checkpointIfLong).

/*
typedef struct sqlite3 sqlite3;
extern int sqlite3_auto_extension(void (*)(void));
extern int sqlite3_db_config(sqlite3 *, int, ...);
extern const char *sqlite3_db_filename(sqlite3 *, const char *);
extern int sqlite3_uri_boolean(const char *, const char *, int);

// SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE (sqlite3.h); declared here because
// go-sqlite3's header is not on this package's include path.
#define CONVO_DBCONFIG_NO_CKPT_ON_CLOSE 1006

static int convo_no_ckpt_on_close(sqlite3 *db, char **err, const void *api) {
	(void)err; (void)api;
	if (sqlite3_uri_boolean(sqlite3_db_filename(db, "main"), "convo_no_ckpt_on_close", 0)) {
		sqlite3_db_config(db, CONVO_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
	}
	return 0;
}

static int convo_register_no_ckpt_on_close(void) {
	return sqlite3_auto_extension((void (*)(void))convo_no_ckpt_on_close);
}
*/
import "C"

import "fmt"

// noCkptParam is the URI parameter that asks for no checkpoint at close.
const noCkptParam = "convo_no_ckpt_on_close"

// registerNoCkptOnClose makes every connection opened from now on in this
// process with noCkptParam=1 skip the checkpoint at close.
func registerNoCkptOnClose() error {
	if rc := C.convo_register_no_ckpt_on_close(); rc != 0 {
		return fmt.Errorf("sqlite3_auto_extension: code %d", int(rc))
	}
	return nil
}
