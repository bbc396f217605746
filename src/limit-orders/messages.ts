/** Text a taker signs (EIP-191) to cancel a limit order: the record's `cancelMessage`. */
export const cancelLimitMessage = (chainId: number, limitOrderId: string) =>
  `relay-cancel-limit|${chainId}|${limitOrderId}`;
