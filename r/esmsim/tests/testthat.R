library(testthat)
library(esmsim)

test_check("esmsim")
