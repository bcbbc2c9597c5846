import { TOOL_COPY } from '../prompts/tool-copy';
import type { Tool } from './tool';

/** `send_message` (T3): the only way the user sees the model's words. */
export const sendMessage: Tool = {
  spec: {
    name: 'send_message',
    description: TOOL_COPY.send_message.description,
    example: TOOL_COPY.send_message.example,
    params: [
      {
        name: 'message',
        type: 'string',
        required: true,
        // As long as the reply reserve holds (E51): the schema bounds it, the reserve decides.
        fillsReserve: true,
        description: TOOL_COPY.send_message.params.message,
      },
    ],
  },
  run(args) {
    const text = String(args.message).trim();
    return Promise.resolve({ type: 'ok', result: 'Sent.', reply: text });
  },
};
