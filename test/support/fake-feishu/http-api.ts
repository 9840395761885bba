// The fake open platform's HTTP endpoints: tenant token, ws endpoint, IM send/reply/patch/upload/reactions, bot info.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES, PLATFORM_LIMITS, cardIsUpdatable, checkContent, parseMultipart } from './validate.js';
import { nextId, type EndpointName, type FakeMessage, type FakeState } from './state.js';
import type { ClientConfig, WsHub } from './ws-hub.js';
import { feedCardReply, urgentReply } from './attention-api.js';

export interface HttpContext {
  state: FakeState;
  hub: WsHub;
  wsBaseUrl: () => string;
  clientConfig: () => ClientConfig;
}

interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const ok = (body: Record<string, unknown>): Reply => ({ status: 200, body: { code: 0, msg: 'success', ...body } });
const refuse = (code: number, msg: string, status = 400): Reply => ({ status, body: { code, msg } });

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(buf: Buffer): Record<string, unknown> | null {
  try {
    const v = JSON.parse(buf.toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, r: Reply): void {
  res.writeHead(r.status, { 'content-type': 'application/json; charset=utf-8', ...(r.headers ?? {}) });
  res.end(JSON.stringify(r.body));
}

type Route = { endpoint: EndpointName; method: string; re: RegExp; authed: boolean };

const ROUTES: Route[] = [
  { endpoint: 'token', method: 'POST', re: /^\/open-apis\/auth\/v3\/tenant_access_token\/internal$/, authed: false },
  { endpoint: 'ws_endpoint', method: 'POST', re: /^\/callback\/ws\/endpoint$/, authed: false },
  { endpoint: 'send', method: 'POST', re: /^\/open-apis\/im\/v1\/messages$/, authed: true },
  { endpoint: 'reply', method: 'POST', re: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reply$/, authed: true },
  { endpoint: 'patch', method: 'PATCH', re: /^\/open-apis\/im\/v1\/messages\/([^/]+)$/, authed: true },
  { endpoint: 'upload', method: 'POST', re: /^\/open-apis\/im\/v1\/images$/, authed: true },
  { endpoint: 'upload_file', method: 'POST', re: /^\/open-apis\/im\/v1\/files$/, authed: true },
  { endpoint: 'get_message', method: 'GET', re: /^\/open-apis\/im\/v1\/messages\/([^/]+)$/, authed: true },
  { endpoint: 'resource', method: 'GET', re: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/resources\/([^/]+)$/, authed: true },
  { endpoint: 'reaction', method: 'POST', re: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reactions$/, authed: true },
  { endpoint: 'card_create', method: 'POST', re: /^\/open-apis\/cardkit\/v1\/cards$/, authed: true },
  { endpoint: 'card_content', method: 'PUT', re: /^\/open-apis\/cardkit\/v1\/cards\/([^/]+)\/elements\/([^/]+)\/content$/, authed: true },
  { endpoint: 'card_settings', method: 'PATCH', re: /^\/open-apis\/cardkit\/v1\/cards\/([^/]+)\/settings$/, authed: true },
  { endpoint: 'bot_info', method: 'GET', re: /^\/open-apis\/bot\/v3\/info\/?$/, authed: true },
  { endpoint: 'feed_card', method: 'PATCH', re: /^\/open-apis\/im\/v2\/feed_cards\/([^/]+)$/, authed: true },
  { endpoint: 'urgent_app', method: 'PATCH', re: /^\/open-apis\/im\/v1\/messages\/([^/]+)\/urgent_app$/, authed: true },
];

export async function handleHttp(req: IncomingMessage, res: ServerResponse, ctx: HttpContext): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const route = ROUTES.find((r) => r.method === req.method && r.re.test(url.pathname));
  if (!route) {
    send(res, refuse(404, `fake-feishu: no route ${req.method} ${url.pathname}`, 404));
    return;
  }
  const param = route.re.exec(url.pathname)?.[1];
  const body = await readBody(req);
  if (route.endpoint === 'resource') {
    serveResource(req, res, url, ctx, route.re.exec(url.pathname)!);
    return;
  }
  let appId: string | undefined;
  let reply: Reply;
  let messageId = param;
  if (route.authed) {
    const auth = ctx.state.checkToken(req.headers.authorization);
    if (!auth.ok) {
      reply = refuse(auth.code, auth.msg, 400);
    } else {
      appId = auth.appId;
      reply = route.endpoint.startsWith('card_')
        ? cardkitReply(route.endpoint, appId, route.re.exec(url.pathname)!, body, ctx)
        : handleAuthed(route.endpoint, appId, param, url, body, req, ctx);
    }
  } else {
    const parsed = parseJson(body);
    appId = String(parsed?.app_id ?? parsed?.AppID ?? '') || undefined;
    reply = route.endpoint === 'token' ? tokenReply(parsed, ctx) : wsEndpointReply(parsed, ctx);
  }
  // An injected failure replaces the answer (it is consumed only when the request got this far).
  const injected = reply.status === 200 && reply.body.code === 0 ? ctx.state.takeFailure(route.endpoint) : undefined;
  if (injected) {
    reply = { status: injected.status, body: { code: injected.code, msg: injected.msg ?? 'fake-feishu injected failure' }, headers: injected.headers };
    // The ws endpoint always answers with a data object (the SDK destructures it before reading code).
    if (route.endpoint === 'ws_endpoint') reply.body.data = {};
    undoSideEffect(route.endpoint, reply, ctx, messageId);
  }
  if (reply.status === 200 && route.endpoint !== 'patch' && typeof (reply.body.data as Record<string, unknown> | undefined)?.message_id === 'string') {
    messageId = (reply.body.data as Record<string, string>).message_id;
  }
  ctx.state.calls.push({
    endpoint: route.endpoint, appId, method: req.method ?? '', path: url.pathname + url.search,
    status: reply.status, code: Number(reply.body.code), msg: String(reply.body.msg ?? ''), messageId, at: Date.now(),
  });
  send(res, reply);
}

/**
 * GET /im/v1/messages/:message_id/resources/:file_key?type=image|file: the bytes, as the real platform streams them.
 * The key must belong to that very message (a merged-forward child's resource is refused through the parent).
 */
function serveResource(req: IncomingMessage, res: ServerResponse, url: URL, ctx: HttpContext, m: RegExpExecArray): void {
  const [messageId, key] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
  const auth = ctx.state.checkToken(req.headers.authorization);
  const type = url.searchParams.get('type');
  const r = ctx.state.resources.get(key);
  let reply: Reply | null = null;
  if (!auth.ok) reply = refuse(auth.code, auth.msg, 400);
  else if (type !== 'image' && type !== 'file') reply = refuse(CODES.invalidParam, 'type must be image or file');
  else if (!r || r.messageId !== messageId) reply = refuse(CODES.resourceNotFound, 'resource not found in this message', 400);
  else if (r.type !== type && !(r.type === 'image' && type === 'file')) reply = refuse(CODES.invalidParam, 'type does not match the resource');
  ctx.state.calls.push({
    endpoint: 'resource', appId: auth.ok ? auth.appId : undefined, method: 'GET', path: url.pathname + url.search,
    status: reply?.status ?? 200, code: Number(reply?.body.code ?? 0), msg: String(reply?.body.msg ?? ''), messageId, at: Date.now(),
  });
  if (reply) return send(res, reply);
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(r!.bytes.length) });
  res.end(r!.bytes);
}

/** Side effects happen before the failure check; an injected failure rolls them back so state stays truthful. */
function undoSideEffect(endpoint: EndpointName, reply: Reply, ctx: HttpContext, messageId: string | undefined): void {
  void reply;
  const s = ctx.state;
  if (endpoint === 'send' || endpoint === 'reply') s.messages.pop();
  if (endpoint === 'upload') s.uploads.pop();
  if (endpoint === 'upload_file') s.fileUploads.pop();
  if (endpoint === 'reaction') s.reactions.pop();
  if (endpoint === 'patch' && messageId) {
    const m = s.message(messageId);
    if (m && m.history.length > 1) {
      m.history.pop();
      m.content = m.history[m.history.length - 1];
      m.patchTimes.pop();
    }
  }
}

function tokenReply(body: Record<string, unknown> | null, ctx: HttpContext): Reply {
  const app = ctx.state.apps.get(String(body?.app_id ?? ''));
  if (!app) return { status: 200, body: { code: 10003, msg: 'invalid param: app_id' } };
  if (body?.app_secret !== app.appSecret) return { status: 200, body: { code: 10014, msg: 'app secret invalid' } };
  const { token, expire } = ctx.state.issueToken(app.appId);
  return { status: 200, body: { code: 0, msg: 'ok', tenant_access_token: token, expire } };
}

function wsEndpointReply(body: Record<string, unknown> | null, ctx: HttpContext): Reply {
  const app = ctx.state.apps.get(String(body?.AppID ?? ''));
  if (!app || body?.AppSecret !== app.appSecret) return { status: 200, body: { code: 514, msg: 'auth failed', data: {} } };
  return {
    status: 200,
    body: { code: 0, msg: 'ok', data: { URL: ctx.hub.issueUrl(ctx.wsBaseUrl(), app.appId), ClientConfig: ctx.clientConfig() } },
  };
}

function handleAuthed(endpoint: EndpointName, appId: string, param: string | undefined, url: URL, raw: Buffer, req: IncomingMessage, ctx: HttpContext): Reply {
  const s = ctx.state;
  const app = s.apps.get(appId)!;
  const known = (key: string) => s.knownImage(appId, key);
  const knownFile = (key: string) => s.knownFile(appId, key);
  switch (endpoint) {
    case 'bot_info':
      return { status: 200, body: { code: 0, msg: 'ok', bot: { activate_status: 2, app_name: app.botName, avatar_url: '', ip_white_list: [], open_id: app.botOpenId } } };
    case 'upload': {
      const parts = parseMultipart(raw, String(req.headers['content-type'] ?? ''));
      const image = parts?.get('image');
      const imageType = parts?.get('image_type')?.data.toString('utf8') ?? '';
      if (!image) return refuse(CODES.invalidParam, 'image is required');
      if (imageType !== 'message' && imageType !== 'avatar') return refuse(CODES.invalidParam, 'image_type must be message or avatar');
      if (image.data.length === 0) return refuse(CODES.imageEmpty, 'image size is 0');
      if (image.data.length > PLATFORM_LIMITS.imageBytes) return refuse(CODES.imageTooLarge, 'image over 10 MB');
      const imageKey = nextId('img_v3_fake_');
      s.uploads.push({ imageKey, appId, imageType, size: image.data.length, bytes: image.data });
      return ok({ data: { image_key: imageKey } });
    }
    case 'upload_file': {
      const parts = parseMultipart(raw, String(req.headers['content-type'] ?? ''));
      const file = parts?.get('file');
      const fileType = parts?.get('file_type')?.data.toString('utf8') ?? '';
      const fileName = parts?.get('file_name')?.data.toString('utf8') ?? '';
      if (!file) return refuse(CODES.invalidParam, 'file is required');
      if (!['opus', 'mp4', 'pdf', 'doc', 'xls', 'ppt', 'stream'].includes(fileType)) return refuse(CODES.invalidParam, 'file_type must be opus, mp4, pdf, doc, xls, ppt or stream');
      if (!fileName) return refuse(CODES.invalidParam, 'file_name is required');
      if (file.data.length === 0) return refuse(CODES.fileEmpty, 'file size is 0');
      if (file.data.length > PLATFORM_LIMITS.fileBytes) return refuse(CODES.fileTooLarge, 'file over 30 MB');
      const fileKey = nextId('file_v3_fake_');
      s.fileUploads.push({ fileKey, appId, fileType, fileName, size: file.data.length, bytes: file.data });
      return ok({ data: { file_key: fileKey } });
    }
    case 'get_message': {
      // A merged-forward message lists itself, then its children (upper_message_id = the parent), as the platform does.
      const fwd = s.forwards.get(param!);
      const inbound = s.inbound.get(param!);
      if (!inbound) return refuse(CODES.messageNotFound, 'message not found');
      if (!fwd) {
        // Any other message the person sent: itself (what a quote is read back from).
        return ok({ data: { items: [{
          message_id: param, msg_type: inbound.msgType ?? 'text', chat_id: inbound.chatId, create_time: String(Date.now()), deleted: false, updated: false,
          sender: { id: 'ou_quoted', id_type: 'open_id', sender_type: 'user' }, body: { content: inbound.content ?? '{}' },
        }] } });
      }
      const item = (id: string, msgType: string, content: string, upper?: string) => ({
        message_id: id, msg_type: msgType, chat_id: fwd.chatId, create_time: String(Date.now()), deleted: false, updated: false,
        sender: { id: 'ou_forwarded', id_type: 'open_id', sender_type: 'user' }, body: { content }, ...(upper ? { upper_message_id: upper } : {}),
      });
      return ok({ data: { items: [item(param!, 'merge_forward', JSON.stringify({ content: 'Merged and Forwarded Message' })), ...fwd.children.map((c) => item(c.messageId, c.msgType, c.content, param))] } });
    }
    case 'feed_card':
      return feedCardReply(s, appId, param!, url, parseJson(raw));
    case 'urgent_app':
      return urgentReply(s, appId, param!, url, parseJson(raw));
    case 'reaction': {
      const body = parseJson(raw);
      const emoji = (body?.reaction_type as Record<string, unknown> | undefined)?.emoji_type;
      if (typeof emoji !== 'string' || !emoji) return refuse(CODES.invalidParam, 'reaction_type.emoji_type required');
      if (!s.message(param!) && !s.inbound.has(param!)) return refuse(CODES.messageNotFound, 'message not found');
      const reactionId = nextId('rc_');
      s.reactions.push({ reactionId, messageId: param!, appId, emoji });
      return ok({ data: { reaction_id: reactionId, reaction_type: { emoji_type: emoji } } });
    }
    case 'send':
    case 'reply': {
      const body = parseJson(raw);
      if (!body) return refuse(CODES.invalidParam, 'body must be JSON');
      const msgType = String(body.msg_type ?? '');
      const entityRef = msgType === 'interactive' ? cardEntityRef(body.content) : undefined;
      const checked = entityRef !== undefined ? { ok: true as const, parsed: {} } : checkContent(msgType, body.content, known, knownFile);
      if (!checked.ok) return refuse(checked.refusal.code, checked.refusal.msg);
      let place: Pick<FakeMessage, 'chatId' | 'chatType' | 'parentId' | 'rootId' | 'threadId' | 'replyInThread'>;
      if (endpoint === 'send') {
        const type = url.searchParams.get('receive_id_type');
        const receiveId = String(body.receive_id ?? '');
        if (!type || !['chat_id', 'open_id', 'user_id', 'union_id', 'email'].includes(type)) return refuse(CODES.invalidParam, 'receive_id_type is required');
        if (!receiveId) return refuse(CODES.invalidParam, 'receive_id is required');
        place = type === 'chat_id'
          ? { chatId: receiveId, chatType: chatTypeOf(s, receiveId), replyInThread: false }
          : { chatId: `oc_p2p_${receiveId}`, chatType: 'p2p', replyInThread: false };
      } else {
        const parent = s.message(param!) ?? s.inbound.get(param!);
        if (!parent || ('deleted' in parent && parent.deleted)) return refuse(CODES.messageNotFound, 'parent message not found');
        const inThread = body.reply_in_thread === true || !!parent.threadId;
        place = {
          chatId: parent.chatId, chatType: parent.chatType, parentId: param, replyInThread: body.reply_in_thread === true,
          rootId: inThread ? (parent.rootId ?? param) : undefined,
          threadId: inThread ? (parent.threadId ?? nextId('omt_')) : undefined,
        };
      }
      const m: FakeMessage = {
        messageId: nextId('om_'), appId, msgType, content: checked.parsed, history: [checked.parsed],
        deleted: false, expired: false, createdAt: Date.now(), patchTimes: [], ...place,
      };
      if (entityRef !== undefined) {
        const attached = s.cardkit.attach(appId, entityRef, m.messageId);
        if (!attached.ok) return refuse(attached.refusal.code, attached.refusal.msg);
        m.cardId = String(entityRef);
        m.content = structuredClone(attached.card);
        m.history = [m.content];
      }
      s.messages.push(m);
      return ok({
        data: {
          message_id: m.messageId, root_id: m.rootId, parent_id: m.parentId, thread_id: m.threadId, msg_type: msgType,
          create_time: String(m.createdAt), update_time: String(m.createdAt), deleted: false, updated: false,
          chat_id: m.chatId, sender: { id: appId, id_type: 'app_id', sender_type: 'app' }, body: { content: body.content },
        },
      });
    }
    case 'patch': {
      const body = parseJson(raw);
      const m = s.message(param!);
      if (!m || m.appId !== appId) return refuse(CODES.messageNotFound, 'message not found or not sent by this bot');
      if (m.deleted) return refuse(CODES.messageRecalled, 'The message is recalled');
      if (m.expired) return refuse(CODES.messageTooOldToUpdate, 'message is too old to be updated');
      if (m.msgType !== 'interactive') return refuse(CODES.notUpdatable, 'only cards can be patched');
      const now = Date.now();
      m.patchTimes = m.patchTimes.filter((t) => now - t < 1000);
      if (m.patchTimes.length >= PLATFORM_LIMITS.patchPerMessagePerSecond) return refuse(CODES.frequency, 'message update frequency limit', 400);
      const checked = checkContent('interactive', body?.content, known);
      if (!checked.ok) return refuse(checked.refusal.code, checked.refusal.msg);
      if (!cardIsUpdatable(m.content as Record<string, unknown>) || !cardIsUpdatable(checked.parsed as Record<string, unknown>)) {
        return refuse(CODES.notUpdatable, 'update_multi must be true in both cards');
      }
      m.patchTimes.push(now);
      m.content = checked.parsed;
      m.history.push(checked.parsed);
      return ok({ data: {} });
    }
    default:
      return refuse(404, 'unknown', 404);
  }
}

/** The card_id of an interactive body `{"type":"card","data":{"card_id"}}` (a CardKit entity), else undefined. */
function cardEntityRef(content: unknown): unknown {
  if (typeof content !== 'string') return undefined;
  try {
    const v = JSON.parse(content) as Record<string, unknown>;
    return v?.type === 'card' ? ((v.data as Record<string, unknown> | undefined)?.card_id ?? null) : undefined;
  } catch {
    return undefined;
  }
}

function cardkitReply(endpoint: EndpointName, appId: string, m: RegExpExecArray, raw: Buffer, ctx: HttpContext): Reply {
  const body = parseJson(raw);
  const ck = ctx.state.cardkit;
  const r = endpoint === 'card_create' ? ck.create(appId, body)
    : endpoint === 'card_content' ? ck.content(appId, decodeURIComponent(m[1]!), decodeURIComponent(m[2]!), body)
      : ck.settings(appId, decodeURIComponent(m[1]!), body);
  return r.ok ? ok({ data: r.data }) : refuse(r.refusal.code, r.refusal.msg);
}

function chatTypeOf(s: FakeState, chatId: string): 'p2p' | 'group' {
  for (const r of s.inbound.values()) if (r.chatId === chatId) return r.chatType;
  return chatId.startsWith('oc_p2p_') ? 'p2p' : 'group';
}
