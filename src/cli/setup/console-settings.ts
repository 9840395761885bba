// What to switch on in the Feishu/Lark developer console for a larkmux bot, as the lines `larkmux setup` prints.

/** An app permission (scope) larkmux uses, and whether the main path needs it. */
export interface ScopeNeed {
  scope: string;
  /** The console's name for it, as the English console shows it. */
  label: string;
  /** The same name as the Chinese console shows it (what most Feishu users see, and search for). */
  labelZh: string;
  required: boolean;
  why: string;
}

/**
 * Scope names as the developer console lists them (checked against Feishu's permission list: the receive scopes
 * carry the `:readonly` suffix). Required = the p2p/group chat path breaks without it.
 */
export const SCOPES: readonly ScopeNeed[] = [
  { scope: 'im:message.p2p_msg:readonly', label: 'Read direct messages sent to the bot', labelZh: '获取用户发给机器人的单聊消息', required: true, why: 'receive direct messages' },
  { scope: 'im:message.group_at_msg:readonly', label: 'Read group messages that mention the bot', labelZh: '获取群组中@机器人的消息', required: true, why: 'receive @mentions in groups' },
  { scope: 'im:message:send_as_bot', label: 'Send messages as the app', labelZh: '以应用的身份发消息', required: true, why: 'reply, send and update the screen cards' },
  { scope: 'im:message', label: 'Read and send messages in direct and group chats', labelZh: '获取与发送单聊、群组消息', required: true, why: 'reply in topics, patch cards, add the "delivered" reaction' },
  { scope: 'im:resource', label: 'Read and upload images and files', labelZh: '获取与上传图片或文件资源', required: true, why: 'upload screenshots for the cards' },
  { scope: 'im:message.group_msg', label: 'Read all group messages', labelZh: '获取群组中所有消息', required: false, why: 'follow-ups in a session topic without an @mention; without it, mention the bot in each group message' },
  { scope: 'im:message.reactions:write_only', label: 'Add message reactions', labelZh: '添加、删除消息表情回复', required: false, why: 'only if your tenant does not grant reactions through im:message' },
  // attention (issue 16): without these the chat is not pinned / nobody is buzzed; the rest works
  { scope: 'im:datasync.feed_card.time_sensitive:write', label: 'Use time-sensitive notifications', labelZh: '调用即时提醒能力', required: false, why: 'pin the chat at the top of the chat list while a session waits for you (attention.pin)' },
  { scope: 'im:message.urgent', label: 'Send in-app buzz messages', labelZh: '发送应用内加急消息', required: false, why: 'buzz you when a session has waited attention.buzzAfterMinutes' },
] as const;

/** Console page names in English and Chinese: the checklist prints both, since the console may show either. */
export const CONSOLE_PAGES = {
  addBot: 'Add features → Bot (添加应用能力 → 机器人)',
  scopes: 'Permissions & Scopes (权限管理) → add',
  events: 'Events & Callbacks → Event configuration (事件与回调 → 事件配置)',
  callbacks: 'Events & Callbacks → Callback configuration (事件与回调 → 回调配置)',
  release: 'Version Management & Release (版本管理与发布)',
  availability: "availability range (可用范围)",
} as const;

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
  // Each scope: its id and why, then its console name as the Chinese and the English console show it.
  const scopeLines = (s: ScopeNeed) => [`       ${s.scope.padEnd(34)} ${s.why}`, `       ${''.padEnd(34)} 「${s.labelZh}」 ${s.label}`];
  return [
    `Now enable these in the developer console (开发者后台): ${consoleUrl(domain, appId)}`,
    '',
    `  1. ${CONSOLE_PAGES.addBot}: enable the bot capability.`,
    `  2. ${CONSOLE_PAGES.scopes} (REQUIRED / 必需):`,
    ...required.flatMap(scopeLines),
    '     optional (可选):',
    ...optional.flatMap(scopeLines),
    `  3. ${CONSOLE_PAGES.events}:`,
    `       ${transport}`,
    `       Add event: ${CONSOLE_EVENTS.messageEvent} (Receive messages v2.0 / 接收消息) — REQUIRED`,
    `  4. ${CONSOLE_PAGES.callbacks}:`,
    `       ${events === 'websocket' ? 'Mode: persistent connection (长连接)' : 'Mode: HTTP, same Request URL as the events'}`,
    `       Add callback: ${CONSOLE_EVENTS.cardCallback} (Card action / 卡片回传交互) — REQUIRED for the card buttons`,
    `  5. ${CONSOLE_PAGES.release}: create a version and publish it (scopes and events apply only after release);`,
    `     add yourself to the app's ${CONSOLE_PAGES.availability}.`,
  ];
}
