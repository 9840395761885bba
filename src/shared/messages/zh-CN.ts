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


  // phone: web terminal view controls (text size, fit-to-width)
  'webterm.view.controls': '显示',
  'webterm.view.smaller': 'A−',
  'webterm.view.smallerLabel': '缩小文字',
  'webterm.view.larger': 'A+',
  'webterm.view.largerLabel': '放大文字',
  'webterm.view.size': '{px} 像素',
  'webterm.view.fit': '适应宽度',
  'webterm.view.text': '文本',
  'webterm.view.textLabel': '以按本屏宽度换行的文本显示屏幕内容',
  'webterm.view.fitLabel': '按本屏宽度重排终端（离开后恢复原尺寸）',
};
