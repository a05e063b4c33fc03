module github.com/podflow/podflow/tools/catalog

go 1.26.8
