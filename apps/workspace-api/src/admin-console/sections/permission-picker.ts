import { html, type Html } from '@platform/http';
import { PERMISSIONS } from '../../api-keys';
import { type AdminPerson, may } from '../admin-context';

/**
 * Checkboxes of the permission catalogue, named `permission:<p>`. Those the person does not hold
 * cannot be changed (the service would refuse): they are shown disabled, and a ticked one is
 * sent anyway by a hidden field, so that saving the form keeps it.
 */
export function permissionPicker(
  person: AdminPerson,
  selected: readonly string[],
  legend = 'Permissions',
): Html {
  return html`<fieldset>
    <legend>${legend}</legend>
    <div class="choices">
      ${PERMISSIONS.map((p) => {
        const id = `perm-${p.replace('.', '-')}`;
        const held = may(person, p);
        const on = selected.includes(p);
        return html`<div class="check">
          <input
            id="${id}"
            type="checkbox"
            name="permission:${p}"
            ${on ? html`checked` : null}
            ${held ? null : html`disabled`}
          />
          <label for="${id}">${p}</label>
          ${!held && on ? html`<input type="hidden" name="permission:${p}" value="on" />` : null}
        </div>`;
      })}
    </div>
  </fieldset>`;
}
