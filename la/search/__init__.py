"""IDA*: the batched search used everywhere (`ida_star`) and the plain recursive one (`reference`)."""
from la.search import reference
from la.search.ida_star import ida_star
from la.search.result import SearchResult, check_plan

__all__ = ["ida_star", "reference", "SearchResult", "check_plan"]
