// The C seam between Swift and the Linux calls that create files without replacing anything.
//
// `renameat2` and `RENAME_NOREPLACE` are GNU extensions that Swift's Glibc module does not export.
#ifndef HVT_CFILES_H
#define HVT_CFILES_H

/// Renames `from` to `to` unless `to` exists: `renameat2(RENAME_NOREPLACE)`, or `link` then `unlink` on
/// file systems without it. Returns 0 on success; -1 with `errno` set otherwise (`EEXIST` when `to`
/// exists, whatever kind of file it is).
int hvt_rename_noreplace(const char *from, const char *to);

/// Creates `path` as a new, empty regular file (`open(O_CREAT | O_EXCL | O_WRONLY)`, mode 0666 less the
/// umask) and closes it. Returns 0 on success; -1 with `errno` set otherwise (`EEXIST` when anything is
/// there already, a dangling symbolic link included).
int hvt_create_exclusive(const char *path);

#endif
