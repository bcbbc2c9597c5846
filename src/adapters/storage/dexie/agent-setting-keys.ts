/**
 * Whether a settings key belongs to one agent (rule S30), so deleting the agent deletes it. The
 * per-agent keys name the agent as a whole `:`-separated part: `seqMark:<agent>`,
 * `writer:<agent>`, `ui.conversation:<agent>`, `strategy:<name>:<agent>[:<conversation>]`
 * (a conversation id starts `<agent>:`). An agent whose id merely starts with the same characters
 * keeps its keys; device-wide keys (`ui.theme`, `profile.displayName`) name no agent.
 */
export function isAgentSettingKey(key: string, agentId: string): boolean {
  const part = `:${agentId}`;
  for (let at = key.indexOf(part); at >= 0; at = key.indexOf(part, at + 1)) {
    const after = key.charAt(at + part.length);
    if (after === '' || after === ':') return true;
  }
  return false;
}
