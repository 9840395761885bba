// Simplified Chinese messages: the same keys as en.ts (the compiler and test/unit/i18n.test.ts check it).
import type { en } from './en.js';

export const zhCN: Record<keyof typeof en, string> = {
  'common.larkmux': 'larkmux',

  // newcomer: first-run problems told in the chat with their fix
  'newcomer.cliMissing': '服务器上没有安装 **{program}**，会话无法启动。请在服务器上运行 `{install}` 安装，然后重新发送消息。',
  'newcomer.cwdMissing': '服务器上不存在文件夹 `{path}`，会话无法启动。请在服务器上创建它（`mkdir -p {path}`），或用 /cd 换一个文件夹，然后重新发送消息。',
};
