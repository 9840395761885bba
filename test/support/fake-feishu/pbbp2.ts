// Hand-written protobuf codec for Feishu's long-connection frame (pbbp2.Frame), as the SDK's protobufjs reads it.

export interface FrameHeader {
  key: string;
  value: string;
}

export interface Frame {
  SeqID: number;
  LogID: number;
  service: number;
  /** 0 = control (ping/pong), 1 = data (events and their ACKs). */
  method: number;
  headers: FrameHeader[];
  payloadEncoding?: string;
  payloadType?: string;
  payload?: Uint8Array;
  LogIDNew?: string;
}

const WIRE_VARINT = 0;
const WIRE_LEN = 2;

class Writer {
  private readonly parts: number[] = [];

  varint(value: number): void {
    // Values stay below 2^53 (ids are counters), so plain arithmetic is exact.
    let v = value;
    if (v < 0) throw new Error(`pbbp2: negative varint ${v}`);
    while (v >= 0x80) {
      this.parts.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.parts.push(v);
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  bytes(field: number, data: Uint8Array): void {
    this.tag(field, WIRE_LEN);
    this.varint(data.length);
    for (const b of data) this.parts.push(b);
  }

  string(field: number, s: string): void {
    this.bytes(field, new TextEncoder().encode(s));
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

class Reader {
  pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): number {
    let result = 0;
    let mul = 1;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('pbbp2: truncated varint');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 0x80;
    }
  }

  bytes(): Uint8Array {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw new Error('pbbp2: truncated bytes');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    return new TextDecoder().decode(this.bytes());
  }

  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_LEN) this.bytes();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw new Error(`pbbp2: unsupported wire type ${wire}`);
  }
}

function encodeHeader(h: FrameHeader): Uint8Array {
  const w = new Writer();
  w.string(1, h.key);
  w.string(2, h.value);
  return w.finish();
}

function decodeHeader(buf: Uint8Array): FrameHeader {
  const r = new Reader(buf);
  const h: FrameHeader = { key: '', value: '' };
  while (!r.done) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (field === 1) h.key = r.string();
    else if (field === 2) h.value = r.string();
    else r.skip(wire);
  }
  return h;
}

export function encodeFrame(f: Frame): Uint8Array {
  const w = new Writer();
  w.tag(1, WIRE_VARINT);
  w.varint(f.SeqID);
  w.tag(2, WIRE_VARINT);
  w.varint(f.LogID);
  w.tag(3, WIRE_VARINT);
  w.varint(f.service);
  w.tag(4, WIRE_VARINT);
  w.varint(f.method);
  for (const h of f.headers) w.bytes(5, encodeHeader(h));
  if (f.payloadEncoding !== undefined) w.string(6, f.payloadEncoding);
  if (f.payloadType !== undefined) w.string(7, f.payloadType);
  if (f.payload !== undefined) w.bytes(8, f.payload);
  if (f.LogIDNew !== undefined) w.string(9, f.LogIDNew);
  return w.finish();
}

export function decodeFrame(buf: Uint8Array): Frame {
  const r = new Reader(buf);
  const f: Partial<Frame> & { headers: FrameHeader[] } = { headers: [] };
  while (!r.done) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    switch (field) {
      case 1: f.SeqID = r.varint(); break;
      case 2: f.LogID = r.varint(); break;
      case 3: f.service = r.varint(); break;
      case 4: f.method = r.varint(); break;
      case 5: f.headers.push(decodeHeader(r.bytes())); break;
      case 6: f.payloadEncoding = r.string(); break;
      case 7: f.payloadType = r.string(); break;
      case 8: f.payload = Uint8Array.from(r.bytes()); break;
      case 9: f.LogIDNew = r.string(); break;
      default: r.skip(wire);
    }
  }
  for (const k of ['SeqID', 'LogID', 'service', 'method'] as const) {
    if (f[k] === undefined) throw new Error(`pbbp2: missing required ${k}`);
  }
  return f as Frame;
}

export function headerValue(f: Frame, key: string): string | undefined {
  return f.headers.find((h) => h.key === key)?.value;
}
