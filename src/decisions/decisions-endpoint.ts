export const DECISIONS_ENDPOINT = '/v1/decisions';
