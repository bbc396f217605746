/** Whether a transaction mined in `block` is `finalityConfirmations` deep at `head` (its own block counts). */
export const isFinal = (block: number, head: number, finalityConfirmations: number) =>
  head - block + 1 >= finalityConfirmations;
