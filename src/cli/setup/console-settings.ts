// What to switch on in the Feishu/Lark developer console for a larkmux bot, as the lines `larkmux setup` prints.

/** An app permission (scope) larkmux uses, and whether the main path needs it. */
export interface ScopeNeed {
  scope: string;
  /** The console's name for it (Chinese console label in brackets where it helps find it). */
  label: string;
  required: boolean;
  why: string;
}

/**
 * Scope names as the developer console lists them (checked against Feishu's permission list: the receive scopes
 * carry the `:readonly` suffix). Required = the p2p/group chat path breaks without it.
 */
export const SCOPES: readonly ScopeNeed[] = [
  { scope: 'im:message.p2p_msg:readonly', label: 'Read direct messages sent to the bot (获取用户发给机器人的单聊消息)', required: true, why: 'receive direct messages' },
  { scope: 'im:message.group_at_msg:readonly', label: 'Read group messages that mention the bot (获取群组中@机器人的消息)', required: true, why: 'receive @mentions in groups' },
  { scope: 'im:message:send_as_bot', label: 'Send messages as the app (以应用的身份发消息)', required: true, why: 'reply, send and update the screen cards' },
  { scope: 'im:message', label: 'Read and send messages in direct and group chats (获取与发送单聊、群组消息)', required: true, why: 'reply in topics, patch cards, add the "delivered" reaction' },
  { scope: 'im:resource', label: 'Read and upload images and files (获取与上传图片或文件资源)', required: true, why: 'upload screenshots for the cards' },
  { scope: 'im:message.group_msg', label: 'Read all group messages (获取群组中所有消息)', required: false, why: 'follow-ups in a session topic without an @mention; without it, mention the bot in each group message' },
  { scope: 'im:message.reactions:write_only', label: 'Add message reactions (添加、删除消息表情回复)', required: false, why: 'only if your tenant does not grant reactions through im:message' },
] as const;

export const CONSOLE_EVENTS = {
  /** The one event larkmux subscribes to. */
  messageEvent: 'im.message.receive_v1',
  /** Card button taps (key row, display mode, selections). */
  cardCallback: 'card.action.trigger',
} as const;

/** The developer-console URL of an app, per domain (a private deployment has its own console). */
export function consoleUrl(domain: string, appId: string): string {
  if (domain === 'lark') return `https://open.larksuite.com/app/${appId}`;
  if (domain === 'feishu') return `https://open.feishu.cn/app/${appId}`;
  return `your platform's developer console (app ${appId})`;
}

/** The checklist printed after setup; `events` decides between long connection and webhook wording. */
export function consoleChecklist(opts: { appId: string; domain: string; events: 'websocket' | 'webhook' }): string[] {
  const { appId, domain, events } = opts;
  const transport = events === 'websocket'
    ? 'Mode: "Receive events through persistent connection" (长连接接收事件) — no public URL needed; larkmux must be running while you save it'
    : 'Mode: "Send events to developer server" (HTTP) — set the Request URL to this machine\'s webhook address';
  const required = SCOPES.filter((s) => s.required);
  const optional = SCOPES.filter((s) => !s.required);
  return [
    `Now enable these in the developer console: ${consoleUrl(domain, appId)}`,
    '',
    '  1. Add features → Bot: enable the bot capability.',
    '  2. Permissions & Scopes → add (REQUIRED):',
    ...required.map((s) => `       ${s.scope.padEnd(34)} ${s.why}`),
    '     optional:',
    ...optional.map((s) => `       ${s.scope.padEnd(34)} ${s.why}`),
    '  3. Events & Callbacks → Event configuration:',
    `       ${transport}`,
    `       Add event: ${CONSOLE_EVENTS.messageEvent} (Receive messages v2.0 / 接收消息) — REQUIRED`,
    '  4. Events & Callbacks → Callback configuration:',
    `       ${events === 'websocket' ? 'Mode: persistent connection (长连接)' : 'Mode: HTTP, same Request URL as the events'}`,
    `       Add callback: ${CONSOLE_EVENTS.cardCallback} (Card action / 卡片回传交互) — REQUIRED for the card buttons`,
    '  5. Version Management & Release: create a version and publish it (scopes and events apply only after release);',
    '     add yourself to the app\'s availability range.',
  ];
}
