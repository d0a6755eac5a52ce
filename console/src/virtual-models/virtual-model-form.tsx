import { Button, Checkbox, Group, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useErrorOnField } from '../components/use-error-on-field';
import type { VirtualModel, VirtualModelFields } from '../api/types';
import { withoutErrorsUnder } from '../budgets/without-errors-under';
import { ErrorAlert } from '../components/error-alert';
import { formPathOfParam } from './form-path-of-param';
import { StrategyInput } from './strategy-input';
import type { TargetChoice } from './target-row-fields';
import { TargetsEditor } from './targets-editor';
import { useFallbackKindLabel } from './use-fallback-kind-label';
import { useVirtualModelErrors } from './use-virtual-model-errors';
import {
  fallbackKindChoices,
  formValuesToVirtualModelFields,
  virtualModelChanges,
  virtualModelToFormValues,
  type VirtualModelFormValues,
} from './virtual-model-form-values';

export type VirtualModelSubmission =
  | { kind: 'create'; fields: VirtualModelFields }
  | { kind: 'update'; name: string; changes: Partial<Omit<VirtualModelFields, 'name'>> };

/**
 * Every member of a virtual model (admin-api section 11.2). Editing keeps the name (it is the path)
 * and sends only what changed. A refusal naming a member is shown at its field too.
 */
export function VirtualModelForm({
  virtualModel,
  choices,
  servedModels,
  takenNames,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  virtualModel?: VirtualModel;
  /** The models a target may name. */
  choices: readonly TargetChoice[];
  /** Every public model ID a channel serves: a virtual model may not take one as its name. */
  servedModels: readonly string[];
  /** The other virtual models' names. */
  takenNames: readonly string[];
  pending: boolean;
  error: unknown;
  onSubmit: (submission: VirtualModelSubmission) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const fallbackKindLabel = useFallbackKindLabel();
  const initial = virtualModelToFormValues(virtualModel);
  // The name of a stored one is the path and never sent again: only a new name is checked.
  const errorsOf = useVirtualModelErrors(
    virtualModel ? { servedModels: [], takenNames: [] } : { servedModels, takenNames },
  );
  const form = useForm<VirtualModelFormValues>({ initialValues: initial, validate: errorsOf });
  useErrorOnField(error, formPathOfParam, form.setFieldError);
  const submit = (values: VirtualModelFormValues) =>
    onSubmit(
      virtualModel
        ? { kind: 'update', name: virtualModel.name, changes: virtualModelChanges(initial, values) }
        : { kind: 'create', fields: formValuesToVirtualModelFields(values) },
    );
  const { values } = form;
  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack gap="sm">
        <TextInput
          label={t('virtualModels.name')}
          description={virtualModel ? t('virtualModels.nameFixed') : t('virtualModels.nameHint')}
          required
          disabled={virtualModel !== undefined}
          autoComplete="off"
          {...form.getInputProps('name')}
        />
        <TargetsEditor
          rows={values.targets}
          choices={choices}
          errors={form.errors}
          onChange={(rows) => {
            form.setFieldValue('targets', rows);
            form.setErrors((errors) => {
              const { targets: _cleared, ...rest } = withoutErrorsUnder('targets')(errors);
              return rest;
            });
          }}
        />
        <StrategyInput
          value={values.strategy}
          onChange={(strategy) => form.setFieldValue('strategy', strategy)}
          error={form.errors['strategy']}
        />
        <Checkbox.Group
          label={t('virtualModels.fallbackOn')}
          description={t('virtualModels.fallbackOnHint')}
          {...form.getInputProps('fallbackOn')}
        >
          <Stack gap={6} mt={6}>
            {fallbackKindChoices(values.fallbackOn).map((kind) => (
              <Checkbox key={kind} value={kind} label={fallbackKindLabel(kind)} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch
          label={t('virtualModels.sticky')}
          description={t('virtualModels.stickyHint')}
          {...form.getInputProps('sticky', { type: 'checkbox' })}
        />
        {Boolean(error) && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {virtualModel ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
