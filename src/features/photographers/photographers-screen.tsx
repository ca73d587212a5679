import { useCallback, useDeferredValue, useEffect, useState } from 'react';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { getPhotographers, type PhotographerAttributes, type PhotographerList } from '../../api/photographers.ts';
import { photographerSearch } from '../../domain/photographer-edits.ts';
import { PhotographerRow } from './photographer-row.tsx';
import './photographers.css';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; list: PhotographerList; words: string };

const HEADERS = ['NAME', 'EMAIL', 'BUSINESS NAME', 'PASSWORD', 'PASSWORD CONFIRMATION', 'APPROVED', 'CREDIT'];

/** Photographers list (orders.md §2, admin): search from 3 characters, one row per photographer with the admin's tools. */
export function PhotographersScreen() {
  const [text, setText] = useState('');
  const words = photographerSearch(useDeferredValue(text));
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [more, setMore] = useState(false);

  useEffect(() => {
    const ctrl = new AbortController();
    getPhotographers({ search: words, signal: ctrl.signal }).then(
      (list) => setLoad({ state: 'loaded', list, words }),
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        logErrorDetails(err);
        setLoad({ state: 'error', message: errorText(err) });
      },
    );
    return () => ctrl.abort();
  }, [words]);

  const saved = useCallback((p: PhotographerAttributes) => {
    setLoad((l) => (l.state === 'loaded' ? { ...l, list: { ...l.list, data: l.list.data.map((d) => (d.attributes.guid === p.guid ? { ...d, attributes: p } : d)) } } : l));
  }, []);

  const loadMore = () => {
    if (load.state !== 'loaded' || !load.list.meta.next_cursor) return;
    setMore(true);
    getPhotographers({ search: load.words, cursor: load.list.meta.next_cursor })
      .then(
        (page) => setLoad({ ...load, list: { data: [...load.list.data, ...page.data], meta: page.meta } }),
        (err: unknown) => {
          logErrorDetails(err);
          setLoad({ state: 'error', message: errorText(err) });
        },
      )
      .finally(() => setMore(false));
  };

  return (
    <section className="photographers">
      <h1>PHOTOGRAPHERS</h1>
      <label className="search">
        <span className="visually-hidden">Search by Photographer Name, Business, or Email</span>
        <input type="search" placeholder="Search by Photographer Name, Business, or Email" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      {load.state === 'loading' ? <p role="status">loading</p> : null}
      {load.state === 'error' ? (
        <p role="alert" className="load-error">
          ERROR LOADING: {load.message}
        </p>
      ) : null}
      {load.state === 'loaded' ? (
        <>
          <p className="muted">
            {load.list.data.length} of {load.list.meta.total} photographers{load.words ? ` matching “${load.words}”` : ''}
          </p>
          {load.list.data.length === 0 ? <p className="empty">{load.words ? 'No photographer matches this search.' : 'No photographers have signed up yet.'}</p> : null}
          <div className="table-box" hidden={load.list.data.length === 0}>
            <table className="photographer-table">
              <thead>
                <tr>
                  {HEADERS.map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {load.list.data.map((d) => (
                  <PhotographerRow key={d.attributes.guid} photographer={d.attributes} onSaved={saved} />
                ))}
              </tbody>
            </table>
          </div>
          {load.list.meta.next_cursor ? (
            <button type="button" className="button" onClick={loadMore} disabled={more}>
              {more ? 'loading more…' : 'LOAD MORE'}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
