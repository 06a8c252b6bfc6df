// The calendar page: FullCalendar (served by this service) fed from the service's own JSON API.
// Served as a file: the Content-Security-Policy forbids inline script.
'use strict';
(function () {
  const body = document.body;
  const api = body.dataset.api;
  const auth = body.dataset.auth;
  const [status, typeFilter, periodFilter, legend, tokenForm, tokenInput, dialog] = [
    'status',
    'type-filter',
    'period-filter',
    'legend',
    'token-form',
    'token',
    'details',
  ].map((id) => document.getElementById(id));

  const KNOWN_COLORS = { general: '#1f6fb2', 'check-in': '#1d7a46', grade: '#a3321b' };
  /** A type's colour: the known ones fixed, any other from a hash of its name (dark enough for white text). */
  function colorOf(type) {
    if (KNOWN_COLORS[type]) return KNOWN_COLORS[type];
    let hash = 0;
    for (const c of type) hash = (hash * 31 + c.charCodeAt(0)) % 360;
    return `hsl(${hash}, 55%, 35%)`;
  }

  const TOKEN_KEY = 'calendar-token';
  const token = () => sessionStorage.getItem(TOKEN_KEY);
  const canWrite = () => auth === 'off' || Boolean(token());
  const headers = (extra) => {
    const all = { accept: 'application/json', ...extra };
    if (token()) all.authorization = `Bearer ${token()}`;
    return all;
  };
  const say = (text, kind) => {
    status.textContent = text;
    status.className = `status ${kind || ''}`;
  };

  const seenTypes = new Set(Object.keys(KNOWN_COLORS));
  const seenPeriods = new Set();
  function addOptions(select, values) {
    const present = new Set([...select.options].map((o) => o.value));
    for (const value of [...values].sort()) {
      if (present.has(value)) continue;
      const option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      select.append(option);
    }
  }
  function drawLegend() {
    legend.replaceChildren(
      ...[...seenTypes].sort().map((type) => {
        const item = document.createElement('li');
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.backgroundColor = colorOf(type);
        item.append(swatch, type);
        return item;
      }),
    );
  }

  /** An API event as FullCalendar's: all-day, coloured by type; only single events move. */
  function toCalendarEvent(event) {
    return {
      id: `${event.id}@${event.date}`,
      title: event.title,
      start: event.date,
      allDay: true,
      color: colorOf(event.type),
      editable: canWrite() && event.recurrence === null,
      classNames: [`type-${event.type}`],
      extendedProps: { event },
    };
  }

  function visible(event) {
    return (
      (!typeFilter.value || event.type === typeFilter.value) &&
      (!periodFilter.value || (event.period ?? '') === periodFilter.value)
    );
  }

  async function readJson(url) {
    const res = await fetch(url, { headers: headers() });
    if (res.status === 401) {
      tokenForm.hidden = false;
      throw new Error('This calendar needs a token to be read: enter one below.');
    }
    if (!res.ok) throw new Error(`The calendar could not be read (HTTP ${res.status}).`);
    return res.json();
  }

  /**
   * FullCalendar's event source: the range read of the visible dates. Its end is exclusive and
   * the API's inclusive: the extra day is never shown.
   */
  function loadEvents(info, success, failure) {
    const url = `${api}/events/range?start=${info.startStr.slice(0, 10)}&end=${info.endStr.slice(0, 10)}`;
    readJson(url).then(
      (events) => {
        for (const e of events) {
          seenTypes.add(e.type);
          if (e.period) seenPeriods.add(e.period);
        }
        addOptions(typeFilter, seenTypes);
        addOptions(periodFilter, seenPeriods);
        drawLegend();
        success(events.filter(visible).map(toCalendarEvent));
      },
      (error) => {
        say(error.message, 'error');
        failure(error);
      },
    );
  }

  function showDetails(event) {
    document.getElementById('details-title').textContent = event.title;
    const fields = [
      ['Date', event.date],
      ['Type', event.type],
      ['Period', event.period ?? '—'],
      ['Description', event.description || '—'],
    ];
    if (event.recurrence) {
      fields.push(['Repeats', event.recurrence.rrule]);
      if (event.recurrence.exdates.length > 0)
        fields.push(['Except', event.recurrence.exdates.join(', ')]);
    }
    if (event.source)
      fields.push(['From', `${event.source.channel ?? ''} ${event.source.message_id ?? ''}`]);
    document.getElementById('details-fields').replaceChildren(
      ...fields.flatMap(([name, value]) => {
        const dt = document.createElement('dt');
        dt.textContent = name;
        const dd = document.createElement('dd');
        dd.textContent = value;
        return [dt, dd];
      }),
    );
    dialog.showModal();
  }

  /**
   * Moves a single event to the day it was dropped on. The edit is conditional on the version
   * the page showed: a version read now must be the same one (else someone changed it since),
   * and the PATCH carries its ETag in If-Match, so a change in between is a 412.
   */
  async function move(info) {
    const shown = info.event.extendedProps.event;
    const date = info.event.startStr.slice(0, 10);
    const conflict = () => {
      info.revert();
      say(
        `"${shown.title}" was changed by someone else since this page loaded it (412): it was not moved. Reload to see the change.`,
        'error',
      );
      calendar.refetchEvents();
    };
    const current = await fetch(`${api}/event/${shown.id}`, { headers: headers() });
    if (!current.ok) return conflict();
    const latest = await current.json();
    if (latest.updated_at !== shown.updated_at) return conflict();
    const res = await fetch(`${api}/event/${shown.id}`, {
      method: 'PATCH',
      headers: headers({
        'content-type': 'application/json',
        'if-match': current.headers.get('etag'),
      }),
      body: JSON.stringify({ date }),
    });
    if (res.status === 412) return conflict();
    if (!res.ok) {
      info.revert();
      const problem = await res.json().catch(() => ({}));
      say(
        `"${shown.title}" was not moved: ${problem.detail || problem.title || `HTTP ${res.status}`}`,
        'error',
      );
      return;
    }
    say(`Moved "${shown.title}" to ${date}.`, 'ok');
    calendar.refetchEvents();
  }

  // `?date=2025-03-03` opens the calendar on that date (a link to a month).
  const initialDate = new URLSearchParams(location.search).get('date');
  const calendar = new FullCalendar.Calendar(document.getElementById('calendar'), {
    timeZone: 'UTC',
    initialDate: /^\d{4}-\d{2}-\d{2}$/.test(initialDate ?? '') ? initialDate : undefined,
    initialView: window.matchMedia('(max-width: 640px)').matches ? 'listMonth' : 'dayGridMonth',
    firstDay: 1,
    height: 'auto',
    headerToolbar: {
      left: 'prev,next today',
      center: 'title',
      right: 'dayGridMonth,dayGridWeek,listMonth',
    },
    buttonText: { today: 'Today', dayGridMonth: 'Month', dayGridWeek: 'Week', listMonth: 'List' },
    events: loadEvents,
    eventClick: (info) => {
      info.jsEvent.preventDefault();
      showDetails(info.event.extendedProps.event);
    },
    eventDrop: (info) => {
      move(info).catch((error) => {
        info.revert();
        say(`The event was not moved: ${error.message}`, 'error');
      });
    },
    // FullCalendar's markup, made accessible: a day cell is named by its date link but holds
    // events too (a name that hides its content), and its toolbar icons are images without text
    // inside buttons that have a name.
    dayCellDidMount: (info) => info.el.removeAttribute('aria-labelledby'),
    datesSet: () => {
      for (const icon of document.querySelectorAll('.fc-icon'))
        icon.setAttribute('aria-hidden', 'true');
    },
    eventDidMount: (info) => {
      const e = info.event.extendedProps.event;
      info.el.setAttribute(
        'aria-label',
        `${e.title}, ${e.type}${e.period ? `, ${e.period}` : ''}, ${e.date}`,
      );
      info.el.setAttribute('tabindex', '0');
      info.el.addEventListener('keydown', (key) => {
        if (key.key === 'Enter') showDetails(e);
      });
    },
  });

  typeFilter.addEventListener('change', () => calendar.refetchEvents());
  periodFilter.addEventListener('change', () => calendar.refetchEvents());
  if (auth !== 'off') tokenForm.hidden = false;
  tokenForm.addEventListener('submit', (submit) => {
    submit.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, tokenInput.value.trim());
    tokenInput.value = '';
    say('Token kept for this tab: drag an event to another day to move it.', 'ok');
    calendar.refetchEvents();
  });
  if (canWrite()) say('Drag an event to another day to move it.');
  calendar.render();
  // FullCalendar re-lays itself out a moment after a resize; a phone turned sideways (or a
  // screenshot at another width) should not wait for it.
  window.addEventListener('resize', () => calendar.updateSize());
})();
