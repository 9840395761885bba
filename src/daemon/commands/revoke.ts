// /revoke <open_id>|chat: takes back a talk grant.
import { defineTalkGrantCommand } from './grant-target.js';

export const revokeCommand = defineTalkGrantCommand('revoke');
