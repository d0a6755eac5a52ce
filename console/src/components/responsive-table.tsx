import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'right';
}

/**
 * A table on wide screens; on phones each row turns into a card whose lines are labelled with
 * the column headers (console.css), so nothing scrolls sideways.
 */
export function ResponsiveTable<Row>({
  label,
  rows,
  columns,
  rowKey,
  empty,
}: {
  label: string;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string | number;
  empty: string;
}) {
  if (rows.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="md">
        {empty}
      </Text>
    );
  }
  return (
    <div className="responsive-table-wrapper">
      <Table className="responsive-table" aria-label={label} verticalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} ta={column.align}>
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column) => (
                <Table.Td key={column.key} data-label={column.header} ta={column.align}>
                  {column.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
