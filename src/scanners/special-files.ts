// What a scan never opens: kernel pseudo file systems (/proc, /sys, debugfs, cgroup…, whose "files" are live
// kernel state: some unreadable, some endless, some with side effects when read) and anything that is not a
// regular file or a folder (opening a FIFO blocks until a writer comes; a socket or device is not content).
import { closeSync, constants, fstatSync, openSync, readFileSync, statfsSync, type Stats } from 'node:fs';

/**
 * Where the pseudo file systems are mounted by convention. /dev is devtmpfs, which statfs reports with the
 * same magic number as an ordinary tmpfs such as /tmp, so it can only be recognised by its place.
 */
const SPECIAL_PLACES = ['/proc', '/sys', '/dev'];

/** statfs f_type of the pseudo file systems (linux/magic.h), to recognise them wherever they are mounted. */
const SPECIAL_MAGIC = new Map<number, string>([
  [0x9fa0, 'procfs'], [0x62656572, 'sysfs'], [0x64626720, 'debugfs'], [0x74726163, 'tracefs'],
  [0x27e0eb, 'cgroup'], [0x63677270, 'cgroup2'], [0x73636673, 'securityfs'], [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'], [0x62656570, 'configfs'], [0xde5e81e4, 'efivarfs'], [0x1cd1, 'devpts'],
  [0x19800202, 'mqueue'], [0x42494e4d, 'binfmt_misc'], [0x65735543, 'fusectl'], [0xf97cff8c, 'selinuxfs'],
  [0x43415d53, 'smackfs'], [0x6e736673, 'nsfs'],
]);

/** The special place an absolute, normalised path lies in (`/proc`, `/sys`, `/dev`), judged from the path alone. */
export function specialPlace(path: string): string | undefined {
  return SPECIAL_PLACES.find((place) => path === place || path.startsWith(`${place}/`));
}

/** The pseudo file system holding `path`, judged by statfs (Linux only: other systems number theirs differently). */
export function pseudoFileSystem(path: string): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    // f_type is unsigned in the kernel; `>>> 0` undoes a sign extension on 32-bit builds.
    return SPECIAL_MAGIC.get(statfsSync(path).type >>> 0);
  } catch {
    return undefined;
  }
}

/** Why a scan must not read `path` (a resolved path), or undefined when it lies on an ordinary file system. */
export function specialFileSystem(path: string): string | undefined {
  return specialPlace(path) ?? pseudoFileSystem(path);
}

/** What a non-regular entry is, for messages. */
export function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFile()) return 'a regular file';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}

/**
 * The bytes of `path` when it is a regular file, else undefined. It is opened non-blocking (a FIFO swapped in
 * after the folder was listed cannot block the scan) and checked on the open descriptor, so what is read is
 * what was checked; without `followLinks`, a symbolic link swapped in is refused too.
 */
export function readRegularFile(path: string, { followLinks = false } = {}): Buffer | undefined {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0) | (followLinks ? 0 : constants.O_NOFOLLOW ?? 0);
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return undefined; // a link, with followLinks off
    throw err;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}
