import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { folderIdParam } from './accounting.schemas.js';

/** Employees of the folder's company, with the account their salaries and expenses are booked on. */

export const EmployeeItem = z
  .object({
    id: z.string(),
    name: z.string(),
    first_name: z.string().nullable().optional(),
    last_name: z.string().nullable().optional(),
    function: z.string().nullable().optional(),
    phone: z.string().nullable().optional(),
    mobile: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    active: z.boolean().nullable().default(true),
    reference: z.string().nullable().optional(),
    account_number: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "The employee's ledger account" }),
  })
  .openapi('EmployeeItem', { description: 'An employee' });

export const ServicePage_EmployeeItem_ = servicePage(EmployeeItem, 'EmployeeItem');

export const EmployeesQuery = pageQuery({ folder_id: folderIdParam });
