import { useTranslation } from 'react-i18next';

/** The endpoint types with a name of their own; the others read best as the gateway spells them. */
const NAMED_ENDPOINT_TYPES = ['audio-speech', 'audio-transcription', 'realtime'] as const;

type NamedEndpointType = (typeof NAMED_ENDPOINT_TYPES)[number];

function isNamedEndpointType(value: string): value is NamedEndpointType {
  return (NAMED_ENDPOINT_TYPES as readonly string[]).includes(value);
}

/** An endpoint type's choice label: its name in the console's language beside the wire value, as channel types show. */
export function useEndpointTypeLabel(): (endpoint: string) => string {
  const { t } = useTranslation();
  return (endpoint) =>
    isNamedEndpointType(endpoint) ? `${t(`channels.endpointNames.${endpoint}`)} (${endpoint})` : endpoint;
}
