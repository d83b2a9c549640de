// Why an outbound request did not produce a response, in words a caller of the API can act on
// (they become a scrape's failureReason or a webhook delivery's lastError).

export type EgressFailure =
  | 'unresolvable'
  | 'refused_address'
  | 'refused_scheme'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'moved'
  | 'connection';

export class EgressError extends Error {
  constructor(
    readonly failure: EgressFailure,
    message: string,
    /** for `moved`: where the redirect pointed */
    readonly location?: URL,
  ) {
    super(message);
    this.name = 'EgressError';
  }
}
