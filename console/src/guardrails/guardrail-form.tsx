import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useErrorOnField } from '../components/use-error-on-field';
import { ErrorAlert } from '../components/error-alert';
import {
  GUARDRAIL_ACTIONS,
  GUARDRAIL_FAIL_MODES,
  GUARDRAIL_KINDS,
  isGuardrailAction,
  isGuardrailFailMode,
  isGuardrailKind,
  type Guardrail,
  type GuardrailChanges,
  type NewGuardrailFields,
} from './guardrail';
import { GuardrailChoiceInput } from './guardrail-choice-input';
import { guardrailFormPathOfParam } from './guardrail-form-path-of-param';
import {
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  formValuesToGuardrailFields,
  guardrailChanges,
  guardrailToFormValues,
  type GuardrailFormValues,
} from './guardrail-form-values';
import { GuardrailGroupsInput } from './guardrail-groups-input';
import { useGuardrailErrors } from './use-guardrail-errors';
import { useGuardrailLabels } from './use-guardrail-labels';

export type GuardrailSubmission =
  { kind: 'create'; fields: NewGuardrailFields } | { kind: 'update'; id: number; changes: GuardrailChanges };

/**
 * Every member of a guardrail (admin-api section 12): the pattern for a regex, the URL, failure mode
 * and timeout for a webhook. Editing sends only what changed. A refusal naming a member is shown at
 * its field too.
 */
export function GuardrailForm({
  guardrail,
  takenNames,
  knownGroups,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  guardrail?: Guardrail;
  /** The other guardrails' names. */
  takenNames: readonly string[];
  /** The groups the gateway has settings for, offered in the group list. */
  knownGroups: readonly string[];
  pending: boolean;
  error: unknown;
  onSubmit: (submission: GuardrailSubmission) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const labels = useGuardrailLabels();
  const initial = guardrailToFormValues(guardrail);
  const errorsOf = useGuardrailErrors({ takenNames });
  const form = useForm<GuardrailFormValues>({ initialValues: initial, validate: errorsOf });
  useErrorOnField(error, guardrailFormPathOfParam, form.setFieldError);
  const submit = (values: GuardrailFormValues) =>
    onSubmit(
      guardrail
        ? { kind: 'update', id: guardrail.id, changes: guardrailChanges(initial, values) }
        : { kind: 'create', fields: formValuesToGuardrailFields(values) },
    );
  const { values } = form;
  // A kind this console does not know shows both inputs, so neither stored member is hidden.
  const known = isGuardrailKind(values.kind);
  const showsPattern = values.kind === 'regex' || !known;
  const showsWebhook = values.kind === 'webhook' || !known;
  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack gap="sm">
        <TextInput
          label={t('guardrails.name')}
          description={t('guardrails.nameHint')}
          required
          autoComplete="off"
          {...form.getInputProps('name')}
        />
        <GuardrailChoiceInput
          label={t('guardrails.kind')}
          known={GUARDRAIL_KINDS}
          labelOf={labels.kind}
          hintOf={(kind) => (isGuardrailKind(kind) ? t(`guardrails.kindHints.${kind}`) : undefined)}
          value={values.kind}
          onChange={(kind) => {
            form.setFieldValue('kind', kind);
            // The other kind's messages no longer apply.
            for (const field of ['pattern', 'url', 'timeoutMs'] as const) form.clearFieldError(field);
          }}
          error={form.errors['kind']}
        />
        {showsPattern && (
          <TextInput
            label={t('guardrails.pattern')}
            description={t('guardrails.patternHint')}
            required={values.kind === 'regex'}
            autoComplete="off"
            spellCheck={false}
            ff="monospace"
            {...form.getInputProps('pattern')}
          />
        )}
        {showsWebhook && (
          <TextInput
            type="url"
            label={t('guardrails.url')}
            description={t('guardrails.urlHint')}
            required={values.kind === 'webhook'}
            autoComplete="off"
            placeholder="https://"
            {...form.getInputProps('url')}
          />
        )}
        <GuardrailChoiceInput
          label={t('guardrails.action')}
          known={GUARDRAIL_ACTIONS}
          labelOf={labels.action}
          hintOf={(action) => (isGuardrailAction(action) ? t(`guardrails.actionHints.${action}`) : undefined)}
          value={values.action}
          onChange={(action) => form.setFieldValue('action', action)}
          error={form.errors['action']}
        />
        {showsWebhook && (
          <>
            <GuardrailChoiceInput
              label={t('guardrails.fail')}
              known={GUARDRAIL_FAIL_MODES}
              labelOf={labels.fail}
              hintOf={(fail) => (isGuardrailFailMode(fail) ? t(`guardrails.failHints.${fail}`) : undefined)}
              value={values.fail}
              onChange={(fail) => form.setFieldValue('fail', fail)}
              error={form.errors['fail']}
            />
            <NumberInput
              label={t('guardrails.timeout')}
              description={t('guardrails.timeoutHint')}
              placeholder={String(DEFAULT_TIMEOUT_MS)}
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator={false}
              min={MIN_TIMEOUT_MS}
              max={MAX_TIMEOUT_MS}
              // Out of range is said, not silently changed.
              clampBehavior="none"
              {...form.getInputProps('timeoutMs')}
            />
          </>
        )}
        <GuardrailGroupsInput
          allGroups={values.allGroups}
          groups={values.groups}
          knownGroups={knownGroups}
          error={form.errors['groups']}
          onChange={({ allGroups, groups }) => {
            form.setValues({ allGroups, groups });
            form.clearFieldError('groups');
          }}
        />
        {Boolean(error) && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {guardrail ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
