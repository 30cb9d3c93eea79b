"""Dates as the console shows them (the admin is the only place Django formats dates): the
year first and a 24-hour clock, short enough that a changelist's date columns stay narrow."""

DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
TIME_FORMAT = "H:i"
