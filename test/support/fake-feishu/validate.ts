// What the fake platform checks in message bodies, the way the real one refuses them (sizes, card JSON 2.0 shape).

export const PLATFORM_LIMITS = {
  /** Feishu: text message body ≤ 150 KB. */
  textBytes: 150 * 1024,
  /** Feishu: card / post body ≤ 30 KB. */
  cardBytes: 30 * 1024,
  /** Image upload ≤ 10 MB and not empty. */
  imageBytes: 10 * 1024 * 1024,
  /** File upload (POST /im/v1/files) ≤ 30 MB and not empty. */
  fileBytes: 30 * 1024 * 1024,
  /** PATCH /im/v1/messages/:id: 5 updates per second per message. */
  patchPerMessagePerSecond: 5,
} as const;

/** Business codes the fake answers with (the real ones where known). */
export const CODES = {
  invalidParam: 230001,
  cardContentFailed: 230099,
  bodyTooLarge: 230025,
  messageRecalled: 230011,
  messageTooOldToUpdate: 230031,
  notUpdatable: 230026,
  frequency: 230020,
  rateLimit: 99991400,
  tokenInvalid: 99991663,
  tokenMissing: 99991661,
  imageEmpty: 234010,
  imageTooLarge: 234006,
  fileEmpty: 232096,
  fileTooLarge: 232097,
  resourceNotFound: 234003,
  messageNotFound: 230032,
} as const;

export interface Refusal {
  code: number;
  msg: string;
}

const V2_TOP_KEYS = new Set(['schema', 'config', 'header', 'body', 'card_link']);
const V2_CONFIG_KEYS = new Set(['update_multi', 'streaming_mode', 'streaming_config', 'summary', 'enable_forward', 'width_mode', 'locales', 'style']);

function walkElements(elements: unknown, visit: (el: Record<string, unknown>) => Refusal | null): Refusal | null {
  if (!Array.isArray(elements)) return { code: CODES.cardContentFailed, msg: 'card: elements must be an array' };
  for (const el of elements) {
    if (!el || typeof el !== 'object') return { code: CODES.cardContentFailed, msg: 'card: element is not an object' };
    const e = el as Record<string, unknown>;
    if (typeof e.tag !== 'string') return { code: CODES.cardContentFailed, msg: 'card: element without tag' };
    const r = visit(e);
    if (r) return r;
    if (e.tag === 'form') {
      // JSON 2.0 forms: a name, named fields, and a submit button (form_action_type) that posts form_value.
      if (typeof e.name !== 'string' || !e.name) return { code: CODES.cardContentFailed, msg: 'card: form without name' };
      const inner = (e.elements as Record<string, unknown>[] | undefined) ?? [];
      if (inner.some((x) => x?.tag === 'input' && (typeof x.name !== 'string' || !x.name))) return { code: CODES.cardContentFailed, msg: 'card: form input without name' };
      if (!inner.some((x) => x?.tag === 'button' && x.form_action_type === 'submit')) return { code: CODES.cardContentFailed, msg: 'card: form without a submit button' };
      const nested = walkElements(inner, visit);
      if (nested) return nested;
    }
    if (e.tag === 'input' && typeof e.max_length === 'number' && (e.max_length < 1 || e.max_length > 1000)) {
      return { code: CODES.cardContentFailed, msg: 'card: input max_length must be 1 to 1000' };
    }
    if (e.tag === 'column_set') {
      for (const col of (e.columns as unknown[] | undefined) ?? []) {
        const inner = walkElements((col as Record<string, unknown>).elements ?? [], visit);
        if (inner) return inner;
      }
    }
  }
  return null;
}

/** Checks a parsed card as JSON 2.0 (or 1.0 when there is no schema). `knownImage` says if an img_key was uploaded. */
export function validateCard(card: unknown, knownImage: (key: string) => boolean): Refusal | null {
  if (!card || typeof card !== 'object' || Array.isArray(card)) return { code: CODES.cardContentFailed, msg: 'card: not an object' };
  const c = card as Record<string, unknown>;
  const v2 = c.schema === '2.0';
  if (v2) {
    for (const k of Object.keys(c)) if (!V2_TOP_KEYS.has(k)) return { code: CODES.cardContentFailed, msg: `card 2.0: unknown property ${k}` };
    const config = (c.config ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(config)) if (!V2_CONFIG_KEYS.has(k)) return { code: CODES.cardContentFailed, msg: `card 2.0: unknown config.${k}` };
    if (config.update_multi === false) return { code: CODES.cardContentFailed, msg: 'card 2.0: update_multi must be true' };
  }
  const elements = v2 ? (c.body as Record<string, unknown> | undefined)?.elements : c.elements;
  return walkElements(elements, (e) => {
    if (v2 && e.tag === 'action') return { code: CODES.cardContentFailed, msg: 'card 2.0: the "action" module does not exist; put buttons in elements' };
    if (e.tag === 'img') {
      if (typeof e.img_key !== 'string' || !knownImage(e.img_key)) return { code: CODES.cardContentFailed, msg: `card: unknown img_key ${String(e.img_key)}` };
    }
    if (e.tag === 'button') {
      const text = e.text as Record<string, unknown> | undefined;
      if (!text || typeof text.content !== 'string') return { code: CODES.cardContentFailed, msg: 'card: button without text' };
      if (v2) {
        if ('value' in e) return { code: CODES.cardContentFailed, msg: 'card 2.0: button "value" is 1.0; use behaviors' };
        const behaviors = e.behaviors;
        if (behaviors !== undefined) {
          if (!Array.isArray(behaviors)) return { code: CODES.cardContentFailed, msg: 'card 2.0: behaviors must be an array' };
          for (const b of behaviors as Record<string, unknown>[]) {
            if (b.type === 'callback' && (typeof b.value !== 'object' || b.value === null)) return { code: CODES.cardContentFailed, msg: 'card 2.0: callback without value' };
            if (b.type === 'open_url' && typeof b.default_url !== 'string') return { code: CODES.cardContentFailed, msg: 'card 2.0: open_url without default_url' };
          }
        }
      }
    }
    if (e.tag === 'markdown' && typeof e.content !== 'string') return { code: CODES.cardContentFailed, msg: 'card: markdown without content' };
    if (typeof e.element_id === 'string' && !/^[A-Za-z][A-Za-z0-9_]{0,19}$/.test(e.element_id)) {
      return { code: CODES.cardContentFailed, msg: `card 2.0: bad element_id ${e.element_id}` };
    }
    return null;
  });
}

/** True when a card allows PATCH: 2.0 (update_multi is implied) or 1.0 with config.update_multi. */
export function cardIsUpdatable(card: Record<string, unknown>): boolean {
  const config = card.config as Record<string, unknown> | undefined;
  if (card.schema === '2.0') return config?.update_multi !== false;
  return config?.update_multi === true;
}

/** Parses and checks a message body for msg_type; returns the parsed content or a refusal. */
export function checkContent(
  msgType: string, content: unknown, knownImage: (key: string) => boolean, knownFile: (key: string) => boolean = () => false,
): { ok: true; parsed: unknown } | { ok: false; refusal: Refusal } {
  if (typeof content !== 'string') return { ok: false, refusal: { code: CODES.invalidParam, msg: 'content must be a JSON string' } };
  const bytes = Buffer.byteLength(content);
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { ok: false, refusal: { code: CODES.invalidParam, msg: 'content is not valid JSON' } };
  }
  switch (msgType) {
    case 'text': {
      if (bytes > PLATFORM_LIMITS.textBytes) return { ok: false, refusal: { code: CODES.bodyTooLarge, msg: 'text body over 150 KB' } };
      const t = (parsed as Record<string, unknown> | null)?.text;
      if (typeof t !== 'string') return { ok: false, refusal: { code: CODES.invalidParam, msg: 'text content needs {"text"}' } };
      return { ok: true, parsed };
    }
    case 'interactive': {
      if (bytes > PLATFORM_LIMITS.cardBytes) return { ok: false, refusal: { code: CODES.bodyTooLarge, msg: 'card body over 30 KB' } };
      const refusal = validateCard(parsed, knownImage);
      return refusal ? { ok: false, refusal } : { ok: true, parsed };
    }
    case 'post':
      if (bytes > PLATFORM_LIMITS.cardBytes) return { ok: false, refusal: { code: CODES.bodyTooLarge, msg: 'post body over 30 KB' } };
      return { ok: true, parsed };
    case 'image': {
      const key = (parsed as Record<string, unknown> | null)?.image_key;
      if (typeof key !== 'string' || !knownImage(key)) return { ok: false, refusal: { code: CODES.invalidParam, msg: 'image message needs a known image_key' } };
      return { ok: true, parsed };
    }
    case 'file': {
      const key = (parsed as Record<string, unknown> | null)?.file_key;
      if (typeof key !== 'string' || !knownFile(key)) return { ok: false, refusal: { code: CODES.invalidParam, msg: 'file message needs a known file_key' } };
      return { ok: true, parsed };
    }
    default:
      return { ok: false, refusal: { code: CODES.invalidParam, msg: `unsupported msg_type ${msgType}` } };
  }
}

/** Minimal multipart/form-data parser: enough for the SDK's image upload (fields and one file part). */
export function parseMultipart(body: Buffer, contentType: string): Map<string, { data: Buffer; filename?: string; type?: string }> | null {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) return null;
  const delim = Buffer.from(`--${boundary}`);
  const parts = new Map<string, { data: Buffer; filename?: string; type?: string }>();
  let pos = body.indexOf(delim);
  while (pos >= 0) {
    const start = pos + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headerEnd = body.indexOf('\r\n\r\n', start);
    if (headerEnd < 0) break;
    const headers = body.subarray(start + 2, headerEnd).toString('utf8');
    const next = body.indexOf(delim, headerEnd + 4);
    if (next < 0) break;
    const data = body.subarray(headerEnd + 4, next - 2);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
    if (name) parts.set(name, { data: Buffer.from(data), filename, type });
    pos = next;
  }
  return parts;
}
