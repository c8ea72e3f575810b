// The OTLP path-token route puts a scoped credential in the URL (`/otlp/{source}/{token}/v1/{signal}`): every
// URL Warden logs goes through this first, so the token never reaches a log line.
const PATH_TOKEN = /^(\/otlp\/[^/?#]*\/)[^/?#]*/;

export const redactOtlpPathToken = (url: string): string => url.replace(PATH_TOKEN, '$1[redacted]');
