// Keys of `llm_providers` beyond `custom` (which lives with the provider registry's schema in schema.ts).
// `ollama_ports` comes from version 8's custom-providers overlay (migration rule 11).
import Type from 'typebox';

/** Ollama's own default port. */
export const DEFAULT_OLLAMA_PORTS = [11434];

export const OllamaPorts = Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), {
  default: DEFAULT_OLLAMA_PORTS,
  description: 'Loopback ports where a local Ollama serves models (version 8\'s providers overlay). Reserved for ' +
    'the proxy\'s local-provider detection (a later step); nothing reads it yet.',
});
