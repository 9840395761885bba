// Simplified Chinese messages: the same keys as en.ts (the compiler and test/unit/i18n.test.ts check it).
import type { en } from './en.js';

export const zhCN: Record<keyof typeof en, string> = {
  'common.larkmux': 'larkmux',

  // newcomer: first-run problems told in the chat with their fix
  'newcomer.cliMissing': '服务器上没有安装 **{program}**，会话无法启动。请在服务器上运行 `{install}` 安装，然后重新发送消息。',
  'newcomer.cwdMissing': '服务器上不存在文件夹 `{path}`，会话无法启动。请在服务器上创建它（`mkdir -p {path}`），或用 /cd 换一个文件夹，然后重新发送消息。',
  // sec-daemon: security replies (control characters, selections, pairing)
  'security.controlChars': '你的消息里有 {count} 个控制字符，已作为可见符号（␛、␃ 等）输入，没有当作按键。要按 Esc 或 Ctrl+C，请用卡片上的按键行。',
  'security.selectionNotYours': 'CLI 正在等待一个回答，只有提问的人或管理员可以回答。你的消息没有发给 CLI（否则会被当作对这个问题的回答）；等问题回答后再发一次。',
  'security.pairingWrong': '配对码不对（还可以试 {left} 次）。',
  'security.pairingLocked': '你输错配对码的次数太多：在 larkmux 重启之前，你的账号不能再配对。其他人仍可配对。',
  // ── console: the local chat console at /console/ (issue 18) ──
  'console.title': 'larkmux 控制台',
  'console.unauthorized': '打开此控制台需要 `larkmux start` 打印的链接。请再次运行 `larkmux start`（或 `larkmux status`）获取新链接，并在此浏览器中打开。',
  'console.badToken': '此控制台链接已失效（每个链接只能使用一次，有效期一小时）。请再次运行 `larkmux start` 获取新链接。',
  'console.webOff': '此服务器未开启网页终端，无法打开终端。',
  'console.error.badMessage': '控制台无法识别该请求，请刷新页面。',
  'console.error.unknownChoice': '该项目或 CLI 已不可选，请刷新页面后重新选择。',
  'console.error.unknownTopic': '该话题已不存在（守护进程已重启），请新建话题。',
  'console.error.unknownButton': '此按钮已失效。',
  'console.topics': '话题',
  'console.noTopics': '还没有话题。选择项目和 CLI，写下第一条消息即可开始。',
  'console.newTopic': '新建话题',
  'console.project': '项目',
  'console.cli': 'CLI',
  'console.firstMessage': '第一条消息，例如“介绍一下这个仓库”',
  'console.start': '开始',
  'console.message': '给 CLI 发消息（Enter 发送，Shift+Enter 换行）',
  'console.send': '发送',
  'console.back': '话题',
  'console.connecting': '正在连接…',
  'console.disconnected': '与 larkmux 的连接已断开，正在重连…',
  'console.webTerminal': '打开终端',
  'console.delivered': '已送达',
  'console.status.starting': '启动中',
  'console.status.working': '工作中',
  'console.status.waiting': '等待你的操作',
  'console.status.idle': '空闲',
  'console.status.limited': '已限流',
  'console.status.exited': '已退出',
  'console.answeredBy': '{who} 已选择：{choice}',
  'console.default': '默认',
  'console.screenAlt': '终端截图',
  'console.direct': '给你的消息',
  'console.you': '你',
};
