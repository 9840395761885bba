// `larkmux logs` for people: a pino JSON line becomes "12-01 21:10:33 INFO  [bot0 db04d2a9] message  key=value …"
// with level names, local time and each key once (pino child bindings repeat keys in the raw line). Pure.

/** pino's numeric levels → names a person reads. */
export const LOG_LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** ANSI colours per level, only when printing to a terminal. */
const LEVEL_COLOUR: Readonly<Record<number, string>> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };

/** Keys shown in the prefix or not at all (the same on every line of one daemon). */
const HIDDEN_KEYS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'v']);
/** Context keys shown as the bracketed prefix, in this order. */
const CONTEXT_KEYS = ['bot', 'session'] as const;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Local time, month-day and seconds: a log spans days, rarely years. */
export function localStamp(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function valueText(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/** One log line for a person; a line that is not pino JSON is returned unchanged. */
export function formatLogLine(line: string, opts: { colour?: boolean } = {}): string {
  let rec: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return line;
    rec = parsed as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = typeof rec.level === 'number' ? rec.level : 30;
  let name = (LOG_LEVEL_NAMES[level] ?? String(level)).padEnd(5);
  if (opts.colour) name = `\x1b[${LEVEL_COLOUR[level] ?? '0'}m${name}\x1b[0m`;
  const when = typeof rec.time === 'number' ? localStamp(rec.time) : '';
  const context = CONTEXT_KEYS.map((k) => rec[k]).filter((v) => typeof v === 'string' && v !== '');
  const err = rec.err && typeof rec.err === 'object' ? (rec.err as { message?: unknown; stack?: unknown }) : null;
  const rest = Object.entries(rec)
    .filter(([k]) => !HIDDEN_KEYS.has(k) && !(CONTEXT_KEYS as readonly string[]).includes(k) && k !== 'err')
    .map(([k, v]) => `${k}=${valueText(v)}`);
  const parts = [when, name, context.length ? `[${context.join(' ')}]` : '', String(rec.msg ?? '')].filter(Boolean);
  let text = parts.join(' ');
  if (rest.length) text += `  ${rest.join(' ')}`;
  if (err) text += `\n    ${String(err.stack ?? err.message ?? JSON.stringify(err)).split('\n').join('\n    ')}`;
  return text;
}
