// Time builtins on int64 nanoseconds (bigint): now_ns, parse_rfc3339_ns, parse_ns and format with Go layouts,
// date/clock/weekday/add_date/diff with IANA zones (through Intl), parse_duration_ns.

import { builtinError, typeError } from '../errors.js';
import { isNumber, normNum, typeName, type Value } from '../value.js';
import { def, int, str } from './registry.js';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function inRange(ns: bigint): bigint {
  if (ns > MAX || ns < MIN) throw builtinError('time outside of valid range');
  return ns;
}

function toNs(fname: string, v: Value): bigint {
  if (typeof v === 'bigint') {
    if (v > MAX || v < MIN) throw builtinError('timestamp too big');
    return v;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || Math.abs(v) > 9.223372036854776e18) throw builtinError('timestamp too big');
    return BigInt(Math.trunc(v));
  }
  throw typeError(`${fname}: operand 1 must be number but got ${typeName(v)}`);
}

/** Offset of a zone at an instant, in minutes east of UTC. */
function zoneOffset(zone: string, ms: number): number {
  if (zone === '' || zone === 'UTC') return 0;
  if (zone === 'Local') return -new Date(ms).getTimezoneOffset();
  let name: string;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value;
  } catch {
    throw builtinError(`unknown time zone ${zone}`);
  }
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

interface Civil {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  weekday: number;
  yday: number;
  offsetMin: number;
}

function civil(ns: bigint, zone: string): Civil {
  const ms = Number(ns / 1_000_000n) - (ns < 0n && ns % 1_000_000n !== 0n ? 1 : 0);
  const offsetMin = zoneOffset(zone, ms);
  const d = new Date(ms + offsetMin * 60_000);
  let nanos = Number(((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n);
  if (nanos < 0) nanos += 1e9;
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), nanos, weekday: d.getUTCDay(), yday: Math.floor((d.getTime() - start) / 86_400_000) + 1, offsetMin };
}

/** `[ns, zone?, layout?]` or `ns`. */
function timeArg(fname: string, v: Value): { ns: bigint; zone: string; layout?: string } {
  if (Array.isArray(v)) {
    const ns = toNs(fname, v[0] ?? null);
    const zone = v[1];
    if (zone !== undefined && typeof zone !== 'string') throw typeError(`${fname}: timezone must be a string`);
    const layout = v[2];
    return { ns, zone: zone ?? 'UTC', ...(typeof layout === 'string' ? { layout } : {}) };
  }
  if (!isNumber(v)) throw typeError(`${fname}: operand 1 must be one of {number, array} but got ${typeName(v)}`);
  return { ns: toNs(fname, v), zone: 'UTC' };
}

def('time.now_ns', 0, (_args, ctx) => normNum(ctx.now));
def('time.date', 1, ([v]) => {
  const c = civil(timeArg('time.date', v!).ns, timeArg('time.date', v!).zone);
  return [c.year, c.month, c.day];
});
def('time.clock', 1, ([v]) => {
  const a = timeArg('time.clock', v!);
  const c = civil(a.ns, a.zone);
  return [c.hour, c.minute, c.second];
});
def('time.weekday', 1, ([v]) => {
  const a = timeArg('time.weekday', v!);
  return DAYS[civil(a.ns, a.zone).weekday]!;
});

function fromCivil(y: number, mo: number, d: number, h: number, mi: number, s: number, nanos: number, offsetMin: number): bigint {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return BigInt(date.getTime() - offsetMin * 60_000) * 1_000_000n + BigInt(nanos);
}

def('time.add_date', 4, (args) => {
  const ns = toNs('time.add_date', args[0]!);
  const c = civil(ns, 'UTC');
  return normNum(inRange(fromCivil(c.year + int('time.add_date', args, 1), c.month + int('time.add_date', args, 2), c.day + int('time.add_date', args, 3), c.hour, c.minute, c.second, c.nanos, 0)));
});

def('time.diff', 2, ([a, b]) => {
  const x = timeArg('time.diff', a!);
  const y = timeArg('time.diff', b!);
  // both instants are read in the first one's zone
  let t1 = civil(x.ns, x.zone);
  let t2 = civil(y.ns, x.zone);
  if (x.ns > y.ns) [t1, t2] = [t2, t1];
  let year = t2.year - t1.year;
  let month = t2.month - t1.month;
  let day = t2.day - t1.day;
  let hour = t2.hour - t1.hour;
  let min = t2.minute - t1.minute;
  let sec = t2.second - t1.second;
  if (sec < 0) {
    sec += 60;
    min--;
  }
  if (min < 0) {
    min += 60;
    hour--;
  }
  if (hour < 0) {
    hour += 24;
    day--;
  }
  if (day < 0) {
    const overflow = new Date(Date.UTC(t1.year, t1.month - 1, 32));
    day += 32 - overflow.getUTCDate();
    month--;
  }
  if (month < 0) {
    month += 12;
    year--;
  }
  return [year, month, day, hour, min, sec];
});

def('time.parse_rfc3339_ns', 1, (args) => {
  const s = str('time.parse_rfc3339_ns', args, 0);
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/.exec(s);
  if (!m) throw builtinError(`parsing time ${JSON.stringify(s)} as "2006-01-02T15:04:05Z07:00": cannot parse`);
  const off = /[Zz]/.test(m[8]!) ? 0 : (m[8]![0] === '-' ? -1 : 1) * (Number(m[8]!.slice(1, 3)) * 60 + Number(m[8]!.slice(4, 6)));
  return normNum(inRange(fromCivil(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!, Number((m[7] ?? '').padEnd(9, '0') || 0), off)));
});

/** Go's named layouts, which time.format accepts by name. */
const NAMED_LAYOUTS: Record<string, string> = {
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RubyDate: 'Mon Jan 02 15:04:05 -0700 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
  Kitchen: '3:04PM',
  Stamp: 'Jan _2 15:04:05',
  StampMilli: 'Jan _2 15:04:05.000',
  StampMicro: 'Jan _2 15:04:05.000000',
  StampNano: 'Jan _2 15:04:05.000000000',
  DateTime: '2006-01-02 15:04:05',
  DateOnly: '2006-01-02',
  TimeOnly: '15:04:05',
};

const TOKENS = ['January', 'Monday', 'Z07:00', '-07:00', 'Z0700', '-0700', '2006', 'Jan', 'Mon', 'MST', 'Z07', '-07', '01', '02', '_2', '15', '03', '04', '05', '06', 'PM', 'pm', '1', '2', '3', '4', '5'];

function layoutTokens(layout: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < layout.length) {
    const frac = /^[.,](0+|9+)(?![0-9])/.exec(layout.slice(i));
    if (frac) {
      out.push(frac[0]);
      i += frac[0].length;
      continue;
    }
    const t = TOKENS.find((k) => layout.startsWith(k, i));
    if (t) {
      out.push(t);
      i += t.length;
    } else {
      out.push(layout[i]!);
      i++;
    }
  }
  return out;
}

def('time.format', 1, ([v]) => {
  const a = timeArg('time.format', v!);
  const c = civil(a.ns, a.zone);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const off = (sep: string, z: boolean, short = false): string => {
    if (z && c.offsetMin === 0) return 'Z';
    const sign = c.offsetMin < 0 ? '-' : '+';
    const m = Math.abs(c.offsetMin);
    return sign + p2(Math.floor(m / 60)) + (short ? '' : sep + p2(m % 60));
  };
  const layout = NAMED_LAYOUTS[a.layout ?? 'RFC3339Nano'] ?? a.layout!;
  return layoutTokens(layout)
    .map((t) => {
      switch (t) {
        case '2006':
          return String(c.year);
        case '06':
          return p2(c.year % 100);
        case 'January':
          return MONTHS[c.month - 1]!;
        case 'Jan':
          return MONTHS[c.month - 1]!.slice(0, 3);
        case '01':
          return p2(c.month);
        case '1':
          return String(c.month);
        case 'Monday':
          return DAYS[c.weekday]!;
        case 'Mon':
          return DAYS[c.weekday]!.slice(0, 3);
        case '02':
          return p2(c.day);
        case '_2':
          return String(c.day).padStart(2, ' ');
        case '2':
          return String(c.day);
        case '15':
          return p2(c.hour);
        case '03':
          return p2(c.hour % 12 || 12);
        case '3':
          return String(c.hour % 12 || 12);
        case '04':
          return p2(c.minute);
        case '4':
          return String(c.minute);
        case '05':
          return p2(c.second);
        case '5':
          return String(c.second);
        case 'PM':
          return c.hour >= 12 ? 'PM' : 'AM';
        case 'pm':
          return c.hour >= 12 ? 'pm' : 'am';
        case 'MST':
          return c.offsetMin === 0 ? 'UTC' : off('', false);
        case 'Z07:00':
          return off(':', true);
        case '-07:00':
          return off(':', false);
        case 'Z0700':
          return off('', true);
        case '-0700':
          return off('', false);
        case 'Z07':
          return off('', true, true);
        case '-07':
          return off('', false, true);
      }
      if (/^[.,](0+|9+)$/.test(t)) {
        const digits = String(c.nanos).padStart(9, '0').slice(0, t.length - 1);
        if (t[1] === '0') return t[0] + digits;
        const trimmed = digits.replace(/0+$/, '');
        return trimmed ? t[0] + trimmed : '';
      }
      return t;
    })
    .join('');
});

def('time.parse_ns', 2, (args) => {
  const named = str('time.parse_ns', args, 0);
  const layout = NAMED_LAYOUTS[named] ?? named;
  const value = str('time.parse_ns', args, 1);
  const f = { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanos: 0, off: 0, pm: undefined as boolean | undefined };
  let i = 0;
  const fail = (): never => {
    throw builtinError(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse`);
  };
  const take = (re: RegExp): string => {
    const m = re.exec(value.slice(i));
    if (!m) fail();
    i += m![0].length;
    return m![0];
  };
  for (const t of layoutTokens(layout)) {
    switch (t) {
      case '2006':
        f.year = Number(take(/^\d{4}/));
        break;
      case '06':
        f.year = 2000 + Number(take(/^\d{2}/));
        if (f.year >= 2069) f.year -= 100;
        break;
      case 'January':
      case 'Jan': {
        const name = take(/^[A-Za-z]+/);
        const idx = MONTHS.findIndex((m) => (t === 'Jan' ? m.slice(0, 3) : m).toLowerCase() === name.toLowerCase());
        if (idx < 0) fail();
        f.month = idx + 1;
        break;
      }
      case '01':
      case '1':
        f.month = Number(take(t === '01' ? /^\d{2}/ : /^\d{1,2}/));
        break;
      case 'Monday':
      case 'Mon':
        take(/^[A-Za-z]+/);
        break;
      case '02':
      case '2':
      case '_2':
        f.day = Number(take(t === '02' ? /^\d{2}/ : /^ ?\d{1,2}/).trim());
        break;
      case '15':
        f.hour = Number(take(/^\d{1,2}/));
        break;
      case '03':
      case '3':
        f.hour = Number(take(/^\d{1,2}/));
        break;
      case '04':
      case '4':
        f.minute = Number(take(/^\d{1,2}/));
        break;
      case '05':
      case '5': {
        f.second = Number(take(/^\d{1,2}/));
        const frac = /^[.,](\d+)/.exec(value.slice(i));
        if (frac) {
          f.nanos = Number(frac[1]!.slice(0, 9).padEnd(9, '0'));
          i += frac[0].length;
        }
        break;
      }
      case 'PM':
      case 'pm':
        f.pm = take(/^(AM|PM|am|pm)/i).toUpperCase() === 'PM';
        break;
      case 'MST':
        take(/^[A-Z]{3,4}/);
        break;
      default:
        if (/^(Z07:00|-07:00|Z0700|-0700|Z07|-07)$/.test(t)) {
          if (t.startsWith('Z') && /^Z/.test(value.slice(i))) {
            i++;
            break;
          }
          const m = take(/^[+-]\d{2}(:?\d{2})?/);
          const sign = m[0] === '-' ? -1 : 1;
          const digits = m.slice(1).replace(':', '');
          f.off = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
        } else if (/^[.,](0+|9+)$/.test(t)) {
          const frac = /^[.,](\d+)/.exec(value.slice(i));
          if (frac) {
            f.nanos = Number(frac[1]!.slice(0, 9).padEnd(9, '0'));
            i += frac[0].length;
          } else if (t[1] === '0') fail();
        } else if (value[i] === t) i++;
        else fail();
    }
  }
  if (i !== value.length) throw builtinError(`parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(value.slice(i))}`);
  if (f.pm !== undefined) {
    if (f.pm && f.hour < 12) f.hour += 12;
    if (!f.pm && f.hour === 12) f.hour = 0;
  }
  return normNum(inRange(fromCivil(f.year, f.month, f.day, f.hour, f.minute, f.second, f.nanos, f.off)));
});

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

def('time.parse_duration_ns', 1, (args) => {
  const s = str('time.parse_duration_ns', args, 0);
  if (s === '0') return 0;
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(s);
  if (!m) throw builtinError(`time: invalid duration ${JSON.stringify(s)}`);
  let total = 0;
  for (const part of s.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(part[1]) * UNITS[part[2]!]!;
  return normNum(BigInt(Math.round(m[1] === '-' ? -total : total)));
});
