/** While a screen's code is on its way (the first screen of a visit, or a slow link). */
export function RouteLoading() {
  return (
    <p className="route-loading" role="status">
      loading
    </p>
  );
}
