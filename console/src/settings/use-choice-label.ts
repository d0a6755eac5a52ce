import { useTranslation } from 'react-i18next';
import type { ChoiceSetting } from './setting-definitions';

/** The label of a `choice` setting's value; a value this console does not know, as the gateway spells it. */
export function useChoiceLabel(): (name: string, value: string) => string {
  const { t } = useTranslation();
  // One entry per choice setting: a new one that lacks its labels does not compile.
  const labels: Record<ChoiceSetting, Readonly<Record<string, string>>> = {
    routing_strategy: {
      weighted: t('settings.choices.routing_strategy.weighted'),
      latency: t('settings.choices.routing_strategy.latency'),
    },
    redact_pii: {
      off: t('settings.choices.redact_pii.off'),
      logs: t('settings.choices.redact_pii.logs'),
      upstream: t('settings.choices.redact_pii.upstream'),
    },
    registration: {
      closed: t('settings.choices.registration.closed'),
      open: t('settings.choices.registration.open'),
      invite: t('settings.choices.registration.invite'),
    },
  };
  return (name, value) => {
    const ofSetting: Readonly<Record<string, string>> | undefined = Object.hasOwn(labels, name)
      ? labels[name as ChoiceSetting]
      : undefined;
    return ofSetting !== undefined && Object.hasOwn(ofSetting, value) ? (ofSetting[value] ?? value) : value;
  };
}
