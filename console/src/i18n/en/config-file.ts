/** English texts of configuration as code: what the configuration file manages (admin-api section 13). */
export const enConfigFile = {
  managed: {
    byFile: 'Managed by {{file}}',
    byTheFile: 'Managed by the configuration file',
    readOnly: 'Managed by the configuration file {{file}}: change it there.',
    readOnlyTheFile: 'Managed by the configuration file: change it there.',
    setting: 'Set by the configuration file {{file}}: change it there.',
    settingTheFile: 'Set by the configuration file: change it there.',
  },
} as const;
